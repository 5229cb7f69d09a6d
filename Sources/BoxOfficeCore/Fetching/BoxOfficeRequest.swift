/// What a box office request asks for, before any rule is checked: which span of days, how many entries, which
/// filters, and whether to refresh.
package struct BoxOfficeRequest: Sendable, Hashable {
    /// A day (default yesterday), or a week, weekend or weekdays period (default the latest finished one).
    package enum Span: Sendable, Hashable {
        case daily(CalendarDate?)
        case weekly(CalendarDate?, WeekPeriod)

        /// The weekly period; nil for a day.
        package var period: WeekPeriod? {
            if case .weekly(_, let period) = self { period } else { nil }
        }
    }

    package var span: Span
    package var limit: Int
    package var filters: BoxOfficeService.Filters
    package var refresh: Bool

    package init(span: Span, limit: Int = 10, filters: BoxOfficeService.Filters = .init(), refresh: Bool = false) {
        self.span = span
        self.limit = limit
        self.filters = filters
        self.refresh = refresh
    }
}

/// A box office request resolved into its upstream call (rules checked, key built): made once per request by
/// ``BoxOfficeService/plan(_:)``, then looked up at hand and, on a miss, fetched.
package struct BoxOfficePlan: Sendable {
    package let request: BoxOfficeRequest
    package let call: UpstreamCall
    /// The memory tier's generation (``CachingFetcher/memoryGeneration``) when ``BoxOfficeService/inMemory(_:)``
    /// looked there and missed: unless a body was stored since, the fetch goes straight to the shared store instead
    /// of asking memory again.
    package internal(set) var memoryCheckedAt: UInt64?
}
