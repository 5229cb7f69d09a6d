package import JSONCore

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
