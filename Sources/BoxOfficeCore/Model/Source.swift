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

/// A model that says where it came from: decoded once from a body the cache keeps, it is answered again with the
/// source of each fetch (the first answer's `kobis`, the later ones' `cache`), set by ``Lookup``.
package protocol Sourced: Sendable {
    var source: Source { get set }
}

extension Movie: Sourced {}
extension Person: Sourced {}
extension Company: Sourced {}
extension CodeList: Sourced {}
