import BoxOfficeCore
package import FoundationEssentials
import Glibc

/// When the worker started, for uptime; injected so tests can pin it.
package struct WorkerClock: Sendable {
    package let startedAt: Date
    private let start: ContinuousClock.Instant

    package init(startedAt: Date = Date(), start: ContinuousClock.Instant = .now) {
        self.startedAt = startedAt
        self.start = start
    }

    package var uptimeSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// `startedAt` in RFC 3339, UTC, whole seconds.
    package var startedAtText: String {
        UTCTimestamp.string(secondsSince1970: startedAt.timeIntervalSince1970)
    }
}
