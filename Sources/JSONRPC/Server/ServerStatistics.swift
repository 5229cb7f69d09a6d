import Synchronization

/// Counters of what the server has seen and answered; lock-free, read by `worker.status`.
package final class ServerStatistics: Sendable {
    /// The counters at one moment.
    package struct Snapshot: Sendable, Hashable {
        /// Non-blank lines read.
        package var lines: Int
        /// Well-formed requests with an id (batch elements included).
        package var requests: Int
        package var notifications: Int
        package var succeeded: Int
        /// Requests answered with an error other than `-32600`, `-32700` and `-32800`.
        package var failed: Int
        package var cancelled: Int
        package var parseErrors: Int
        package var invalidRequests: Int
        /// Lines being worked on now.
        package var inFlight: Int
    }

    /// One counter.
    enum Counter {
        case lines, requests, notifications, succeeded, failed, cancelled, parseErrors, invalidRequests
    }

    private let lines = Atomic<Int>(0)
    private let requests = Atomic<Int>(0)
    private let notifications = Atomic<Int>(0)
    private let succeeded = Atomic<Int>(0)
    private let failed = Atomic<Int>(0)
    private let cancelled = Atomic<Int>(0)
    private let parseErrors = Atomic<Int>(0)
    private let invalidRequests = Atomic<Int>(0)
    /// The one count of lines in flight, which also bounds them.
    let inFlight: InFlightGate

    package init(maxInFlight: Int) {
        inFlight = InFlightGate(limit: maxInFlight)
    }

    func bump(_ counter: Counter) {
        switch counter {
        case .lines: lines.add(1, ordering: .relaxed)
        case .requests: requests.add(1, ordering: .relaxed)
        case .notifications: notifications.add(1, ordering: .relaxed)
        case .succeeded: succeeded.add(1, ordering: .relaxed)
        case .failed: failed.add(1, ordering: .relaxed)
        case .cancelled: cancelled.add(1, ordering: .relaxed)
        case .parseErrors: parseErrors.add(1, ordering: .relaxed)
        case .invalidRequests: invalidRequests.add(1, ordering: .relaxed)
        }
    }

    package func snapshot() -> Snapshot {
        Snapshot(
            lines: lines.load(ordering: .relaxed),
            requests: requests.load(ordering: .relaxed),
            notifications: notifications.load(ordering: .relaxed),
            succeeded: succeeded.load(ordering: .relaxed),
            failed: failed.load(ordering: .relaxed),
            cancelled: cancelled.load(ordering: .relaxed),
            parseErrors: parseErrors.load(ordering: .relaxed),
            invalidRequests: invalidRequests.load(ordering: .relaxed),
            inFlight: inFlight.count
        )
    }
}
