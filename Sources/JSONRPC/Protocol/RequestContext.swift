package import JSONCore
import NIOConcurrencyHelpers

/// Everything a handler gets about its request, and its two channels back: progress and cancellation.
package final class RequestContext: Sendable {
    /// The request id; `nil` for a notification.
    package let id: JSONValue?
    package let method: String
    /// `params._meta`, reserved for the protocol.
    package let meta: JSONObject?
    /// The methods of this server (for `rpc.discover`).
    package let registry: MethodRegistry
    let statisticsSource: ServerStatistics
    private let progressSink: OutputWriter?
    private let progress: ProgressState

    /// The progress sent so far for one request, and whether it was answered.
    final class ProgressState: Sendable {
        let state = NIOLockedValueBox<(finished: Bool, last: Double?)>((false, nil))
    }

    init(
        id: JSONValue?, method: String, meta: JSONObject?, registry: MethodRegistry, statistics: ServerStatistics,
        progressSink: OutputWriter?, progress: ProgressState = ProgressState()
    ) {
        self.id = id
        self.method = method
        self.meta = meta
        self.registry = registry
        self.statisticsSource = statistics
        self.progressSink = progressSink
        self.progress = progress
    }

    /// The context of a call made in process, outside any server (the CLI's commands): no id, no progress channel,
    /// counters of its own (nothing was served).
    package static func inProcess(method: String, registry: MethodRegistry) -> RequestContext {
        RequestContext(
            id: nil, method: method, meta: nil, registry: registry, statistics: ServerStatistics(maxInFlight: 1),
            progressSink: nil)
    }

    /// `_meta.progressToken` when it is a string or an integer, as the protocol allows.
    package var progressToken: JSONValue? {
        switch meta?["progressToken"] {
        case let token? where token.stringValue != nil || token.integerValue != nil: token
        default: nil
        }
    }

    /// The server's counters now.
    package var statistics: ServerStatistics.Snapshot { statisticsSource.snapshot() }

    /// Sends `notifications/progress` when the request carries a progress token; otherwise does nothing.
    ///
    /// A value not above the last one sent is dropped (progress is strictly increasing), and nothing is sent once the
    /// request has been answered.
    package func reportProgress(_ value: Double, total: Double? = nil, message: String? = nil) {
        guard let token = progressToken, let progressSink else { return }
        progress.state.withLockedValue { state in
            guard !state.finished, state.last.map({ value > $0 }) ?? true else { return }
            state.last = value
            var params: JSONObject = ["progressToken": token, "progress": Self.number(value)]
            if let total { params["total"] = Self.number(total) }
            if let message { params["message"] = .string(message) }
            let line: JSONValue = ["jsonrpc": "2.0", "method": "notifications/progress", "params": .object(params)]
            // Written under the lock, so no progress line can follow the response.
            progressSink.write(lines: JSONSerializer.line(line))
        }
    }

    /// Closes the progress channel; called before the response is handed to the writer.
    func finish() {
        progress.state.withLockedValue { $0.finished = true }
    }

    private static func number(_ value: Double) -> JSONValue {
        value == value.rounded() && abs(value) < 1e15 ? .integer(Int64(value)) : .real(value)
    }
}
