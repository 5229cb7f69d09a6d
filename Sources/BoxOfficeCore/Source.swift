/// Where an answer came from, and when its upstream body was fetched.
public struct Source: Sendable, Hashable {
    public enum Origin: String, Sendable, Hashable {
        case kobis
        case cache
        case fixture
    }

    public var origin: Origin
    /// RFC 3339, UTC.
    public var fetchedAt: String

    public init(origin: Origin, fetchedAt: String) {
        self.origin = origin
        self.fetchedAt = fetchedAt
    }
}
