import Foundation

/// When the worker started, for uptime; injected so tests can pin it.
public struct WorkerClock: Sendable {
    public let startedAt: Date
    private let start: ContinuousClock.Instant

    public init(startedAt: Date = Date(), start: ContinuousClock.Instant = .now) {
        self.startedAt = startedAt
        self.start = start
    }

    public var uptimeSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// `startedAt` in RFC 3339, UTC, whole seconds.
    public var startedAtText: String {
        startedAt.formatted(.iso8601)
    }
}
