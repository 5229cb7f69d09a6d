import FoundationEssentials

/// A moment as RFC 3339 in UTC, to the whole second (`2026-11-28T22:19:38Z`): what `Date.formatted(.iso8601)`
/// writes, and what an answer's `source.fetchedAt` carries.
///
/// Why our own: every uncached call stamps its answer, and FoundationEssentials' format style (a style value, its
/// calendar and a formatter behind it) was 0.6 % of that call's CPU (issue 43). The day is ``CalendarDate``'s own
/// arithmetic; the tests hold this to the format style over a spread of moments.
package enum UTCTimestamp {
    /// The moment `secondsSince1970` (UTC), the fraction of a second dropped.
    package static func string(secondsSince1970 seconds: Double) -> String {
        // Years 1970–9999 here; anything else (a stored time that is not finite, or absurd) as the style writes it.
        guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else {
            return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
        }
        let whole = Int(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let second = whole - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(CalendarDate(dayNumber: days))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    /// Now.
    package static func now() -> String {
        string(secondsSince1970: Date().timeIntervalSince1970)
    }
}
