import BoxOfficeCore
import BoxOfficeViews
import Testing

/// The run chart: every line within the width, a bar per day (or per bucket of days) growing with the running total,
/// gaps on the baseline, milestones under their column and spelled out below.
@Suite("A run's chart in the terminal")
struct RunChartTests {
    /// 30 days from 2024-03-01, 100,000 a day, with day 10 in no list.
    static let run: FilmRun = {
        let open = CalendarDate("2024-03-01")!
        var listed: [CalendarDate: RunDay.Figures] = [:]
        for day in 1...30 where day != 10 {
            listed[open.adding(days: day - 1)] = RunDay.Figures(
                rank: 1, list: .all, audience: 100_000, audienceTotal: Int64(day) * 100_000, sales: 0, salesTotal: 0,
                screens: 1_000, shows: 4_000)
        }
        return FilmRun(
            movieCode: "20240001", title: "가", openDate: open, through: open.adding(days: 29), listed: listed,
            missing: [open.adding(days: 9): "quota_exhausted"])
    }()

    @Test("every line fits the width, at 40, 80 and 200 columns", arguments: [40, 80, 200])
    func fits(_ width: Int) {
        print(RunChart(width: width, style: TerminalStyle(enabled: false)).render(Self.run))
        let lines = RunChart(width: width, style: TerminalStyle(enabled: false)).render(Self.run)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count >= 8 + 3)
        for line in lines { #expect(DisplayWidth.of(line) <= width, "\(line)") }
    }

    @Test("a column a day when the run fits: the bars grow, the gap is on the baseline, the milestones under their day")
    func columns() {
        let chart = RunChart(width: 80, height: 4, style: TerminalStyle(enabled: false))
        let lines = chart.render(Self.run).split(separator: "\n").map(String.init)
        let plot = lines.prefix(4).map { Array($0.split(separator: "│", maxSplits: 1).last ?? "") }
        #expect(plot.allSatisfy { $0.count == 30 })
        // Day 30 is the top: full in every row; day 10 is a gap: `·` at the bottom, nothing above.
        #expect(plot.allSatisfy { $0[29] == "█" })
        #expect(plot[3][9] == "·" && plot[0][9] == " ")
        // Day 1 is a thirtieth of the top: an eighth or so, at the bottom only.
        #expect(plot[3][0] != " " && plot[2][0] == " ")
        let marks = Array(lines[5])
        let margin = marks.count - 30
        // Past a million, the millions only: 1,000,000 on day 11 (day 10 is a gap), 2,000,000, 3,000,000.
        #expect(marks[margin + 0] == " " && marks[margin + 9] == " " && marks[margin + 10] == "▲")
        #expect(marks[margin + 19] == "▲" && marks[margin + 29] == "▲")
        #expect(lines.contains { $0.contains("▲ 1,000,000 day 11 (2024-03-11)") })
        #expect(!lines.contains { $0.contains("▲ 900,000") })
        #expect(RunChart.marked(Array(Self.run.milestones.prefix(3))).count == 3)
        #expect(lines.first?.contains("3,000,000") == true)
    }

    @Test("a run longer than the plot is bucketed, each column its days' last listed total")
    func buckets() {
        let columns = RunChart.columns(Self.run, marked: Self.run.milestones, plotWidth: 10)
        #expect(columns.count == 10)
        #expect(columns.map(\.firstDay) == [1, 4, 7, 10, 13, 16, 19, 22, 25, 28])
        #expect(columns[3].total == 1_200_000)  // days 10–12: day 10 is a gap, day 12 is listed
        let totals: [Int64] = columns.map { $0.total ?? 0 }
        #expect(totals == totals.sorted())
    }
}
