/// What a start needs to know of the recordings, summarised at build time (`Fixtures/summary.json`, written by
/// `scripts/make-fixtures.py` from the index): the days and periods recorded (the offline defaults and the notice),
/// how many films, the runs' last day and when it was all recorded.
///
/// The index itself (every call's file, what `offline_unavailable` lists) is parsed on the first offline call: it
/// was 37 % of the instructions of a cold ping. OfflineModeTests holds this summary to what the index gives.
package struct OfflineSummary: Sendable {
    package let recordedAt: String
    package let dailyDates: [CalendarDate]
    package let weeklyPeriods: [(period: WeekPeriod, end: CalendarDate)]
    package let movieCount: Int
    /// The last day of the recorded runs' lists; nil when no run is recorded.
    package let runsThrough: CalendarDate?

    /// `text` is `{"recordedAt", "daily": [date…], "weekly": [[period, date]…], "movies", "runsThrough"?}`.
    package init(_ text: String) throws(BoxOfficeError) {
        let root = try UpstreamReader.parse(.kobis, Array(text.utf8))
        recordedAt = try root.member("recordedAt").string()
        var daily: [CalendarDate] = []
        for element in try root.member("daily").elements() {
            guard let date = CalendarDate(try element.string()) else { throw element.fail("expected a date") }
            daily.append(date)
        }
        dailyDates = daily
        var weekly: [(period: WeekPeriod, end: CalendarDate)] = []
        for element in try root.member("weekly").elements() {
            let pair = try element.elements()
            guard pair.count == 2, let period = WeekPeriod(rawValue: try pair[0].string()),
                let end = CalendarDate(try pair[1].string())
            else { throw element.fail("expected [period, date]") }
            weekly.append((period, end))
        }
        weeklyPeriods = weekly
        movieCount = try root.member("movies").int()
        if let through = root.optionalMember("runsThrough") {
            guard let date = CalendarDate(try through.string()) else { throw through.fail("expected a date") }
            runsThrough = date
        } else {
            runsThrough = nil
        }
    }
}
