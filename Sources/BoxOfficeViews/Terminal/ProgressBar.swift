import BoxOfficeCore
import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers

/// A progress bar on stderr for a range export — days done of total, KOBIS calls made, rate and time left —
/// redrawn in place; drawn only when stderr is a terminal.
package final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var calls = 0
        var lastDraw: ContinuousClock.Instant?
    }

    private let total: Int
    private let enabled: Bool
    private let started = ContinuousClock.now
    private let state = NIOLockedValueBox(State())

    package init(total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.enabled = enabled
    }

    /// One day finished; `call` when it cost a KOBIS call.
    package func step(call: Bool) {
        guard enabled else { return }
        let line = state.withLockedValue { state -> String? in
            state.done += 1
            if call { state.calls += 1 }
            let now = ContinuousClock.now
            if let last = state.lastDraw, now - last < .milliseconds(50), state.done < total { return nil }
            state.lastDraw = now
            return Self.line(done: state.done, total: total, calls: state.calls, elapsed: now - started)
        }
        if let line { StandardError.write("\r" + line) }
    }

    /// Ends the bar's line.
    package func finish() {
        guard enabled else { return }
        StandardError.write("\n")
    }

    package static func line(done: Int, total: Int, calls: Int, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let filled = total == 0 ? 20 : 20 * done / total
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let tenths = Int((rate * 10).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled)
        return
            "\(bar) \(done)/\(total) days · \(calls) calls · \(tenths / 10).\(tenths % 10)/s · \(Int(left.rounded())) s left "
    }
}
