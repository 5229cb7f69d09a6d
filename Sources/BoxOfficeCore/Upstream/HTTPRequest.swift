/// An HTTP GET to an upstream service, with a secret-free form of its URL for messages.
package struct HTTPRequest: Sendable {
    package var url: String
    /// The URL as it may appear in errors and logs: the KOBIS key replaced by `REDACTED`.
    package var redactedURL: String
    package var headers: [(String, String)]
    /// Follow redirects to any http or https URL (poster images live on many hosts), not only the same host.
    package var redirectsToAnyHost: Bool
    /// A tighter cap on the body than the transport's own, in bytes.
    package var maximumBytes: Int?
    /// Judges the URL before each hop (the first and every redirect): why it may not be fetched, or the address
    /// it is to be fetched from.
    package var destinationCheck: (@Sendable (String) async -> DestinationVerdict)?
    /// When the call this exchange belongs to must be over (`--deadline`, counted from the call's first attempt):
    /// the transport ends the exchange then, even sooner than its own limit. nil: the transport's limit only.
    package var callEnds: ContinuousClock.Instant?

    package init(
        url: String, redactedURL: String, headers: [(String, String)] = [], redirectsToAnyHost: Bool = false,
        maximumBytes: Int? = nil, destinationCheck: (@Sendable (String) async -> DestinationVerdict)? = nil
    ) {
        self.url = url
        self.redactedURL = redactedURL
        self.headers = headers
        self.redirectsToAnyHost = redirectsToAnyHost
        self.maximumBytes = maximumBytes
        self.destinationCheck = destinationCheck
    }
}

/// Sends HTTP requests; injected so tests and offline mode never touch the network.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportError) -> HTTPResponse
}
