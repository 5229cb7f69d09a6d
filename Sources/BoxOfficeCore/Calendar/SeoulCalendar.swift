/// "Today" and the box office periods, reckoned in Asia/Seoul.
///
/// Korea Standard Time is UTC+9 all year (no daylight saving since 1988), so a fixed offset is exact. `today` is
/// injected (`--today`, `BOXOFFICE_TODAY`, tests); otherwise it comes from the clock.
///
/// Why our own: a fixed offset needs no time zone database (`TimeZone(identifier: "Asia/Seoul")` reads tzdata from
/// disk and may be missing in a minimal container); the week rules (Mon–Sun, Fri–Sun, Mon–Thu) are KOBIS's own.
package struct SeoulCalendar: Sendable, Hashable {
    /// The earliest day with daily data (KOBIS opened in 2003; protocol.md §3).
    package static let earliest = CalendarDate(year: 2003, month: 11, day: 11)!
    package static let offsetSeconds = 9 * 3600

    package let today: CalendarDate

    package init(today: CalendarDate) {
        self.today = today
    }

    /// Today in Seoul at `secondsSince1970` (UTC).
    package init(secondsSince1970: Double) {
        let local = Int((secondsSince1970 + Double(Self.offsetSeconds)).rounded(.down))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        today = CalendarDate(dayNumber: days)
    }

    package var yesterday: CalendarDate { today.adding(days: -1) }

    /// Checks a daily box office date: between 2003-11-11 and yesterday.
    package func checkDaily(_ date: CalendarDate) throws(BoxOfficeError) {
        guard date >= Self.earliest, date <= yesterday else {
            var error = BoxOfficeError(
                .invalidArgument,
                "\"\(date)\" is \(date > yesterday ? "after the latest allowed date \(yesterday) (today's figures do not exist yet)" : "before the earliest allowed date \(Self.earliest)"); allowed: \(Self.earliest) to \(yesterday)"
            )
            error.argument = .date
            throw error
        }
    }
}

extension SeoulCalendar {
    /// The most recent period of this kind that has ended before today.
    package func latestFinished(_ period: WeekPeriod) -> (start: CalendarDate, end: CalendarDate) {
        var candidate = period.range(containing: today)
        while candidate.end >= today {
            candidate = period.range(containing: candidate.start.adding(days: -7))
        }
        return candidate
    }

    /// Checks a weekly date: the period containing it must have ended before today and start after 2003-11-11.
    package func checkWeekly(_ date: CalendarDate, _ period: WeekPeriod) throws(BoxOfficeError) {
        let range = period.range(containing: date)
        let latest = latestFinished(period)
        guard range.end <= latest.end, date >= Self.earliest else {
            var error = BoxOfficeError(
                .invalidArgument,
                date < Self.earliest
                    ? "\"\(date)\" is before the earliest allowed date \(Self.earliest)"
                    : "the \(period.rawValue) of \"\(date)\" (\(range.start) to \(range.end)) has not finished; the latest finished one is \(latest.start) to \(latest.end)"
            )
            error.argument = .date
            throw error
        }
    }
}
