/// An HTTP GET to an upstream service, with a secret-free form of its URL for messages.
public struct HTTPRequest: Sendable {
    public var url: String
    /// The URL as it may appear in errors and logs: the KOBIS key replaced by `REDACTED`.
    public var redactedURL: String
    public var headers: [(String, String)]
    /// Follow redirects to any http or https URL (poster images live on many hosts), not only the same host.
    public var redirectsToAnyHost: Bool
    /// A tighter cap on the body than the transport's own, in bytes.
    public var maximumBytes: Int?

    public init(url: String, redactedURL: String, headers: [(String, String)] = [], redirectsToAnyHost: Bool = false, maximumBytes: Int? = nil) {
        self.url = url
        self.redactedURL = redactedURL
        self.headers = headers
        self.redirectsToAnyHost = redirectsToAnyHost
        self.maximumBytes = maximumBytes
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String?
    public var body: [UInt8]

    public init(status: Int, contentType: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// Why an HTTP exchange failed below the HTTP level. Messages never hold a URL with a key.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case connect, timeout, reset, tooLarge, redirect, other
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether trying again may help (the connection or the time failed, not the request).
    public var isTransient: Bool {
        switch kind {
        case .connect, .timeout, .reset: true
        case .tooLarge, .redirect, .other: false
        }
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}

/// Sends HTTP requests; injected so tests and offline mode never touch the network.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportError) -> HTTPResponse
}
