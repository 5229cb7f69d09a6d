/// A box office request resolved into its upstream call (rules checked, key built): made once per request by
/// ``BoxOfficeService/plan(_:)``, then looked up at hand and, on a miss, fetched.
package struct BoxOfficePlan: Sendable {
    package let request: BoxOfficeRequest
    package let call: UpstreamCall
    /// The memory tier's generation (``CachingFetcher/memoryGeneration``) when ``BoxOfficeService/atHand(_:)``
    /// looked there and missed: unless a body was stored since, the fetch goes straight to the shared store instead
    /// of asking memory again.
    package internal(set) var memoryCheckedAt: UInt64?
}
