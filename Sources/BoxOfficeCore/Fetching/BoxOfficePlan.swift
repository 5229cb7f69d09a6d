/// A box office request resolved into its upstream call (rules checked, key built): made once per request by
/// ``BoxOfficeService/plan(_:)``, then looked up at hand and, on a miss, fetched.
package struct BoxOfficePlan: Sendable {
    package let request: BoxOfficeRequest
    /// The upstream call; a missed ``BoxOfficeService/atHand(_:)`` notes the memory tier's generation on it.
    package internal(set) var call: UpstreamCall
}
