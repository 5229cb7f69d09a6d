import NIOConcurrencyHelpers

/// Keeps a network store out of the requests' way while it is unreachable: after a failure, operations fail at
/// once until a backoff has passed, then one is let through to try again (and reconnect); its success ends the
/// outage. The backoff doubles from ``firstPause`` up to ``longestPause``.
///
/// Without it, every request during an outage would wait for a connection attempt to time out.
final class StoreOutage: Sendable {
    static let firstPause: Duration = .milliseconds(200)
    static let longestPause: Duration = .seconds(5)

    private struct State {
        var failures = 0
        var retryAt: ContinuousClock.Instant?
    }

    private let state = NIOLockedValueBox(State())

    /// Throws when the store is known to be down and the next try is not due yet.
    func admit(_ label: String) throws(StoreError) {
        let waiting = state.withLockedValue { state -> Duration? in
            guard let retryAt = state.retryAt else { return nil }
            let now = ContinuousClock.now
            guard now < retryAt else {
                // This caller makes the try; the others keep failing fast until it has answered.
                state.retryAt = now + Self.pause(after: state.failures)
                return nil
            }
            return retryAt - now
        }
        if let waiting {
            let milliseconds =
                waiting.components.seconds * 1000 + waiting.components.attoseconds / 1_000_000_000_000_000
            throw StoreError("\(label) is unreachable; trying again in \(milliseconds) ms")
        }
    }

    func succeeded() {
        state.withLockedValue { $0 = State() }
    }

    func failed() {
        state.withLockedValue { state in
            state.failures += 1
            state.retryAt = ContinuousClock.now + Self.pause(after: state.failures)
        }
    }

    private static func pause(after failures: Int) -> Duration {
        let doubled = firstPause * (1 << min(max(failures - 1, 0), 10))
        return min(doubled, longestPause)
    }
}
