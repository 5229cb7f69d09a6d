package import JSONCore

/// Something that answers upstream calls: the live services, the offline fixtures, the cache in front of either,
/// and the links between (coalescing, a bound, the quota). Errors are ``BoxOfficeError``s; bodies are not decoded
/// here. What only the cache can do (answer from memory at once, prefetch a fan-out's parts) is the cache's own
/// (``CachingFetcher``), and the service is given the cache by name.
package protocol Fetcher: Sendable {
    func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched
}

/// A fetched upstream body and where it came from.
package struct Fetched: Sendable {
    package var body: [UInt8]
    package var source: Source
    /// The body already parsed, when the fetcher keeps it so (immutable fixtures); decoders then skip the parse.
    package var document: JSONValue?
    /// What has been derived from this body, when it is kept in the in-memory cache.
    package var derived: DerivedValues?

    package init(body: [UInt8], source: Source, document: JSONValue? = nil, derived: DerivedValues? = nil) {
        self.body = body
        self.source = source
        self.document = document
        self.derived = derived
    }
}
