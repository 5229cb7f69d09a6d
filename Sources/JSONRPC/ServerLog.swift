/// Where the server's own log lines go. The protocol layer does not pick a logging library; the executable
/// adapts this to swift-log on stderr.
public struct ServerLog: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case trace, debug, info, notice, warning, error, critical

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let sink: @Sendable (Level, String, [String: String]) -> Void

    public init(_ sink: @escaping @Sendable (Level, String, [String: String]) -> Void) {
        self.sink = sink
    }

    /// Drops everything (tests that do not look at logs).
    public static let discard = ServerLog { _, _, _ in }

    public func callAsFunction(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        sink(level, message, metadata)
    }
}
