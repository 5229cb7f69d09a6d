import JSONCore

/// Something that answers upstream calls: the live services, the offline fixtures, later the cache in front of
/// either. Errors are ``BoxOfficeError``s; bodies are not decoded here.
package protocol Fetcher: Sendable {
    func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched
    /// The answer when it is fresh in the memory tier, without waiting for anything; nil otherwise. The
    /// synchronous half of a request: a method answers on the spot when this finds the body.
    func atHand(_ call: UpstreamCall) -> Fetched?
    /// A number that changes whenever the memory tier takes a new body; nil for a fetcher without one. Read before
    /// ``atHand(_:)``, it tells the later ``fetch(_:)`` whether looking in memory again can find anything new.
    var memoryGeneration: UInt64? { get }
    /// Readies what is already kept for these calls, in one go, before they are made one by one (a fan-out's
    /// parts). Never goes upstream.
    func prefetch(_ calls: [UpstreamCall]) async
}

extension Fetcher {
    package func atHand(_ call: UpstreamCall) -> Fetched? { nil }
    package var memoryGeneration: UInt64? { nil }
    package func prefetch(_ calls: [UpstreamCall]) async {}
}
