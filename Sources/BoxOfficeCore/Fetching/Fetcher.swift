/// Something that answers upstream calls: the live services, the offline fixtures, the cache in front of either,
/// and the links between (coalescing, a bound, the quota). Errors are ``BoxOfficeError``s; bodies are not decoded
/// here. What only the cache can do (answer from memory at once, prefetch a fan-out's parts) is the cache's own
/// (``CachingFetcher``), and the service is given the cache by name.
package protocol Fetcher: Sendable {
    func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched
}
