/// An HTTP date in RFC 9110's preferred form (`Sun, 06 Nov 1994 08:49:37 GMT`, the only one a sender may generate),
/// as seconds since 1970: what a `Retry-After` may carry.
///
/// Read by hand: Foundation's `DateFormatter` lives in the part of Foundation that links ICU, which the worker's
/// binary leaves out; a fixed format in English and GMT needs none of it.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date's seconds since 1970, or nil when `text` is not an IMF-fixdate.
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            parts[1].count == 2, let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
            parts[3].count == 4, let year = Int(parts[3]),
            let date = CalendarDate(year: year, month: monthIndex + 1, day: day)
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]),
            let minute = Int(clock[1]), let second = Int(clock[2]), hour < 24, minute < 60, second < 61
        else { return nil }
        return Double(date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second)
    }
}
