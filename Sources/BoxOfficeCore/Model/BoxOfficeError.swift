/// Every failure of the domain, with what a host needs to act on it. The worker maps these to JSON-RPC errors in
/// one place; the core knows nothing of the wire.
package struct BoxOfficeError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Reason: String, Sendable, Hashable {
        /// Network failure, timeout, HTTP 5xx or 429 after retries.
        case upstreamUnavailable = "upstream_unavailable"
        /// KOBIS `faultInfo`, Kakao 4xx: a bad key or parameter.
        case upstreamRejected = "upstream_rejected"
        /// A body the worker cannot read.
        case upstreamMalformed = "upstream_malformed"
        /// An unknown movie, person or company code.
        case notFound = "not_found"
        /// The local KOBIS daily budget is spent (KOBIS 320011 too).
        case quotaExhausted = "quota_exhausted"
        /// Offline mode and no recorded response covers the request.
        case offlineUnavailable = "offline_unavailable"
        /// A live call needs a key that is not set.
        case notConfigured = "not_configured"
        /// A request outside what the domain allows (a date out of range).
        case invalidArgument = "invalid_argument"
        /// The disk holding the cache directory is full (or the user's quota on it is spent).
        case storageFull = "storage_full"
    }

    package var reason: Reason
    /// A sentence a person can act on. Never holds an API key.
    package var message: String
    package var service: Service?
    /// HTTP status, when one was received.
    package var status: Int?
    /// KOBIS `errorCode` or Kakao `errorType`/`code`.
    package var upstreamCode: String?
    package var upstreamMessage: String?
    /// JSON Pointer of the unreadable member of an upstream body (malformed bodies).
    package var path: String?
    /// The argument a request got wrong (invalid arguments); the worker names it as the face names it (a param).
    package var argument: Argument?
    /// The unknown code, for `not_found`: one of these three.
    package var movieCode: String?
    package var peopleCode: String?
    package var companyCode: String?
    /// What offline fixtures cover, for `offline_unavailable`.
    package var available: [String]?
    /// The environment variable to set, for `not_configured`.
    package var setting: String?
    /// The directory that is full, for `storage_full`.
    package var directory: String?
    /// The local daily budget and when it starts again (RFC 3339, UTC), for `quota_exhausted`.
    package var limit: Int?
    package var resetsAt: String?
    /// Seconds the upstream asked to wait before trying again (`Retry-After` past what the worker waits itself).
    package var retryAfterSeconds: Int?

    /// An argument of a domain call, for ``argument``.
    package enum Argument: String, Sendable, Hashable {
        /// The day of a box office (or the day its period contains).
        case date
        /// The region of a box office (`wideAreaCd`).
        case area
    }

    package init(_ reason: Reason, _ message: String, service: Service? = nil) {
        self.reason = reason
        self.message = message
        self.service = service
    }

    package var description: String { "\(reason.rawValue): \(message)" }

    static func malformed(_ service: Service, at path: String, _ detail: String) -> BoxOfficeError {
        var error = BoxOfficeError(
            .upstreamMalformed,
            "\(service.rawValue) sent a body the worker cannot read: \(detail) at \(path.isEmpty ? "the top level" : path)",
            service: service)
        error.path = path
        return error
    }
}
