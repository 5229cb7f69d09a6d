import Testing

@testable import BoxOfficeCore

/// The scan's stop rules, judged in date order whatever order the days finish in.
@Suite("A run's scan")
struct RunScanTests {
    static let first = CalendarDate("2024-03-01")!
    static let dates = (0..<30).map { first.adding(days: $0) }

    static func figures(_ total: Int64) -> RunDay.Figures {
        RunDay.Figures(
            rank: 1, list: .all, audience: 1, audienceTotal: total, sales: 1, salesTotal: 1, screens: 1, shows: 1)
    }

    /// Days 0–9 listed, 10–29 in no list, recorded in `order`.
    static func scan(_ order: [Int], opening: CalendarDate = first) -> RunScan {
        var scan = RunScan(dates: dates, opening: opening)
        var started: [Int] = []
        while let index = scan.nextIndex() { started.append(index) }
        #expect(started == Array(0..<30))
        for index in order {
            scan.record(index < 10 ? .listed(figures(Int64(index + 1))) : .missing("not_listed"), at: index)
        }
        return scan
    }

    @Test("seven days in no list end the run at the seventh, in any finishing order; later days are dropped")
    func endsInAnyOrder() {
        for order in [Array(0..<30), Array((0..<30).reversed()), (0..<30).map { ($0 * 7) % 30 }] {
            let scan = Self.scan(order)
            #expect(scan.stop == .ended)
            #expect(scan.covered == 17, "days 0–9 listed, 10–16 the seven in no list")
            #expect(scan.listed.count == 10 && scan.missing.count == 7)
        }
    }

    @Test("days in no list before the opening do not end a run")
    func previewsDoNotEnd() {
        var scan = RunScan(dates: Self.dates, opening: Self.dates[12])
        for index in 0..<12 { scan.record(.missing("not_listed"), at: index) }
        #expect(scan.stop == nil && scan.nextIndex() == 0)
        for index in 12..<19 { scan.record(.missing("not_listed"), at: index) }
        #expect(scan.stop == .ended)
    }

    @Test("a failure that stops the scan wins only when it comes first in date order")
    func earliestStopWins() {
        var late = RunScan(dates: Self.dates, opening: Self.first)
        late.record(.stopped(.maxCalls), at: 20)
        #expect(late.stop == .maxCalls && late.nextIndex() == nil, "no day is started after a stop")
        for index in 0..<20 {
            late.record(index < 5 ? .listed(Self.figures(1)) : .missing("not_listed"), at: index)
        }
        #expect(late.stop == .ended, "the run had ended (days 5–11) before the day the calls ran out")
        var early = RunScan(dates: Self.dates, opening: Self.first)
        for index in 0..<3 { early.record(.listed(Self.figures(1)), at: index) }
        early.record(.stopped(.quota), at: 3)
        #expect(early.stop == .quota && early.missing[Self.dates[3]] == "quota_exhausted")
    }

    @Test("compared runs align by day, with the day each reached each step")
    func comparison() {
        func run(_ open: String, _ totals: [Int64]) -> FilmRun {
            let openDate = CalendarDate(open)!
            let listed = Dictionary(
                uniqueKeysWithValues: totals.enumerated().map {
                    (openDate.adding(days: $0.offset), Self.figures($0.element))
                })
            return FilmRun(
                movieCode: open, title: open, openDate: openDate, through: openDate.adding(days: 60), listed: listed,
                missing: [:])
        }
        let comparison = FilmComparison([
            run("2024-01-01", [150_000, 900_000, 1_200_000]), run("2024-02-01", [50_000, 250_000]),
        ])
        #expect(comparison.days.map(\.day) == [1, 2, 3])
        #expect(comparison.days[2].films[1] == nil, "day 3 is outside the second run")
        #expect(comparison.steps.first { $0.audience == 200_000 }?.days == [2, 2])
        #expect(comparison.steps.first { $0.audience == 1_000_000 }?.days == [3, nil])
    }
}
