/// Where an answer came from, and when its upstream body was fetched.
package struct Source: Sendable, Hashable {
    package enum Origin: String, Sendable, Hashable {
        case kobis
        case cache
        case fixture
    }

    package var origin: Origin
    /// RFC 3339, UTC.
    package var fetchedAt: String

    package init(origin: Origin, fetchedAt: String) {
        self.origin = origin
        self.fetchedAt = fetchedAt
    }
}
