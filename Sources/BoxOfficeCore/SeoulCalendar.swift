/// "Today" and the box office periods, reckoned in Asia/Seoul.
///
/// Korea Standard Time is UTC+9 all year (no daylight saving since 1988), so a fixed offset is exact. `today` is
/// injected (`--today`, `BOXOFFICE_TODAY`, tests); otherwise it comes from the clock.
public struct SeoulCalendar: Sendable, Hashable {
    /// The earliest day with daily data (KOBIS opened in 2003; protocol.md §3).
    public static let earliest = CalendarDate(year: 2003, month: 11, day: 11)!
    public static let offsetSeconds = 9 * 3600

    public let today: CalendarDate

    public init(today: CalendarDate) {
        self.today = today
    }

    /// Today in Seoul at `secondsSince1970` (UTC).
    public init(secondsSince1970: Double) {
        let local = Int((secondsSince1970 + Double(Self.offsetSeconds)).rounded(.down))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        today = CalendarDate(dayNumber: days)
    }

    public var yesterday: CalendarDate { today.adding(days: -1) }

    /// Checks a daily box office date: between 2003-11-11 and yesterday.
    public func checkDaily(_ date: CalendarDate) throws(BoxOfficeError) {
        guard date >= Self.earliest, date <= yesterday else {
            var error = BoxOfficeError(
                .invalidArgument,
                "\"\(date)\" is \(date > yesterday ? "after the latest allowed date \(yesterday) (today's figures do not exist yet)" : "before the earliest allowed date \(Self.earliest)"); allowed: \(Self.earliest) to \(yesterday)"
            )
            error.path = "/date"
            throw error
        }
    }
}

/// Which part of a week a weekly box office covers (KOBIS `weekGb`).
public enum WeekPeriod: String, Sendable, Hashable, CaseIterable {
    /// Monday to Sunday (`weekGb=0`).
    case week
    /// Friday to Sunday (`weekGb=1`, KOBIS's default).
    case weekend
    /// Monday to Thursday (`weekGb=2`).
    case weekdays

    public var weekGb: String {
        switch self {
        case .week: "0"
        case .weekend: "1"
        case .weekdays: "2"
        }
    }

    /// The days this period covers in the week of `date`.
    public func range(containing date: CalendarDate) -> (start: CalendarDate, end: CalendarDate) {
        let monday = date.adding(days: 1 - date.weekday)
        switch self {
        case .week: return (monday, monday.adding(days: 6))
        case .weekend: return (monday.adding(days: 4), monday.adding(days: 6))
        case .weekdays: return (monday, monday.adding(days: 3))
        }
    }
}

extension SeoulCalendar {
    /// The most recent period of this kind that has ended before today.
    public func latestFinished(_ period: WeekPeriod) -> (start: CalendarDate, end: CalendarDate) {
        var candidate = period.range(containing: today)
        while candidate.end >= today {
            candidate = period.range(containing: candidate.start.adding(days: -7))
        }
        return candidate
    }

    /// Checks a weekly date: the period containing it must have ended before today and start after 2003-11-11.
    public func checkWeekly(_ date: CalendarDate, _ period: WeekPeriod) throws(BoxOfficeError) {
        let range = period.range(containing: date)
        let latest = latestFinished(period)
        guard range.end <= latest.end, date >= Self.earliest else {
            var error = BoxOfficeError(
                .invalidArgument,
                date < Self.earliest
                    ? "\"\(date)\" is before the earliest allowed date \(Self.earliest)"
                    : "the \(period.rawValue) of \"\(date)\" (\(range.start) to \(range.end)) has not finished; the latest finished one is \(latest.start) to \(latest.end)"
            )
            error.path = "/date"
            throw error
        }
    }
}
