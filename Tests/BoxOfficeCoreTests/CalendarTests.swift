import BoxOfficeCore
import TestSupport
import Testing

@Suite("Dates in Asia/Seoul")
struct CalendarTests {
    func date(_ text: String) -> CalendarDate { CalendarDate(text)! }

    @Test("15:00 UTC is already tomorrow in Seoul")
    func kstBoundary() {
        // 2026-11-21T14:59:59Z and 2026-11-21T15:00:00Z
        #expect(SeoulCalendar(secondsSince1970: 1_795_273_199).today == date("2026-11-21"))
        #expect(SeoulCalendar(secondsSince1970: 1_795_273_200).today == date("2026-11-22"))
        #expect(SeoulCalendar(secondsSince1970: 0).today == date("1970-01-01"))
        #expect(SeoulCalendar(secondsSince1970: -9 * 3600 - 1).today == date("1969-12-31"))
    }

    @Test("parsing and printing, leap days, day numbers and weekdays")
    func calendar() {
        #expect(CalendarDate("20230426") == date("2023-04-26"))
        #expect(CalendarDate("2023-02-29") == nil && CalendarDate("2024-02-29") != nil)
        #expect(CalendarDate("2023-4-26") == nil && CalendarDate(" ") == nil && CalendarDate("2023_04_26") == nil)
        #expect(date("2024-03-01").adding(days: -1).description == "2024-02-29")
        #expect(date("1970-01-01").dayNumber == 0)
        #expect(CalendarDate(dayNumber: date("2003-11-11").dayNumber) == date("2003-11-11"))
        #expect(date("2026-11-21").weekday == 6)  // a Saturday
        #expect(date("2012-01-01").weekday == 7)
        #expect(date("2022-01-05").compact == "20220105")
    }

    @Test("daily range edges: 2003-11-11 to yesterday")
    func dailyRange() throws {
        let calendar = SeoulCalendar(today: date("2026-11-21"))
        try calendar.checkDaily(date("2026-11-20"))
        try calendar.checkDaily(date("2003-11-11"))
        for bad in ["2026-11-21", "2099-01-01", "2003-11-10"] {
            do {
                try calendar.checkDaily(date(bad))
                Issue.record("\(bad) passed")
            } catch {
                #expect(error.reason == .invalidArgument && error.argument == .date)
                #expect(error.message.contains("2003-11-11") && error.message.contains("2026-11-20"))
            }
        }
    }

    @Test(
        "periods and the latest finished one",
        arguments: [
            (WeekPeriod.weekend, "2026-11-13", "2026-11-15"),
            (WeekPeriod.week, "2026-11-09", "2026-11-15"),
            (WeekPeriod.weekdays, "2026-11-16", "2026-11-19"),
        ])
    func weekly(period: WeekPeriod, start: String, end: String) throws {
        let calendar = SeoulCalendar(today: date("2026-11-21"))  // Saturday
        let latest = calendar.latestFinished(period)
        #expect(latest.start == date(start) && latest.end == date(end))
        try calendar.checkWeekly(date(end), period)
        #expect(throws: BoxOfficeError.self) {
            try calendar.checkWeekly(date("2026-11-20"), period == .weekdays ? .week : period)
        }
    }

    @Test("on a Monday the weekend just ended is finished")
    func mondayWeekend() {
        #expect(SeoulCalendar(today: date("2026-11-23")).latestFinished(.weekend).end == date("2026-11-22"))
        #expect(SeoulCalendar(today: date("2026-11-23")).latestFinished(.week).end == date("2026-11-22"))
    }

    @Test("display: thousands separators and rank changes")
    func display() {
        #expect(DisplayFormat.thousands(0) == "0")
        #expect(DisplayFormat.thousands(999) == "999")
        #expect(DisplayFormat.thousands(1000) == "1,000")
        #expect(DisplayFormat.thousands(108_104_121_193) == "108,104,121,193")
        #expect(DisplayFormat.thousands(-1_234_567) == "-1,234,567")
        #expect(DisplayFormat.thousands(.min) == "-9,223,372,036,854,775,808")
        #expect(DisplayFormat.thousands(.max) == "9,223,372,036,854,775,807")
        // Every length and sign, against the rule written plainly: a comma before each group of three from the right.
        var generator = SplitMix(seed: 20_261_129)
        for _ in 0..<2000 {
            let shift = Int64.random(in: 0...63, using: &generator)
            let value = Int64.random(in: .min ... .max, using: &generator) >> shift
            let digits = Array(String(value.magnitude))
            let grouped = digits.enumerated().map { index, digit in
                (index > 0 && (digits.count - index) % 3 == 0 ? "," : "") + String(digit)
            }.joined()
            #expect(DisplayFormat.thousands(value) == (value < 0 ? "-" : "") + grouped, "\(value)")
        }
        #expect(DisplayFormat.rankChange(trend: .same, change: 0) == "-")
        #expect(DisplayFormat.rankChange(trend: .down, change: -3) == "▼3")
    }
}
