package import BoxOfficeCore

extension AnswerView {
    /// A film's run: its summary and the day of each step as fields (what a post says; names that fit a screen's
    /// ten-column labels), the run itself for the charts of a page and a card.
    package init(run: FilmRun, coverage: RunCoverage? = nil) {
        let open = run.openDate.map { " · 개봉 \($0) (\(ViewFormat.weekday($0)))" } ?? ""
        self.init(.run, heading: "\(run.title)\(open)", subheading: Self.span(run), source: coverage.map(Self.covered))
        runs = [run]
        let summary = run.summary
        var fields: [(String, String)] = []
        if let last = run.days.last(where: { $0.figures != nil }), let total = last.figures?.audienceTotal {
            fields.append(("Total", "\(DisplayFormat.thousands(total)) (day \(last.day), \(last.date))"))
        }
        fields += [
            ("Opening", Self.say(summary.opening) { "\(DisplayFormat.thousands($0.audience)) (\($0.date))" }),
            ("Peak", Self.say(summary.peak) { "\(DisplayFormat.thousands($0.audience)) (day \($0.day), \($0.date))" }),
            ("Week 1", Self.say(summary.firstWeek) { DisplayFormat.thousands($0) }),
            ("Week 2", Self.say(summary.secondWeek) { DisplayFormat.thousands($0) }),
            ("Wk2 drop", Self.say(summary.secondWeekDrop) { ViewFormat.percent($0 * 100) }),
            ("Day 14", Self.say(summary.totalAtDay14) { DisplayFormat.thousands($0) }),
            ("Day 49", Self.say(summary.totalAtDay49) { DisplayFormat.thousands($0) }),
            ("뒷심 49/14", Self.say(summary.stayingPower) { Self.ratio($0) }),
            (
                "Best wkend",
                Self.say(summary.bestWeekend) { weekend in
                    "\(DisplayFormat.thousands(weekend.audience)) (Fri \(weekend.friday))"
                }
            ),
            ("Screens", Self.say(summary.screensAtPeak) { "\(DisplayFormat.thousands($0)) at the peak" }),
            ("Per show", Self.say(summary.audiencePerShow) { "\(Self.ratio($0)) audience" }),
        ]
        for milestone in RunChart.marked(run.milestones) {
            fields.append((Self.step(milestone.audience), "day \(milestone.day) (\(milestone.date))"))
        }
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// Runs side by side: one item per film (its opening, its totals at days 7 and 14, its second-week drop, and
    /// the day it reached each step any of them cites), the runs for the charts.
    package init(comparison runs: [FilmRun], coverage: [RunCoverage] = []) {
        let titles = runs.map(\.title).joined(separator: " · ")
        self.init(.comparison, heading: "\(titles) · 일차 기준", source: Self.comparedCoverage(coverage))
        self.runs = runs
        let steps = Self.comparedSteps(runs)
        items = runs.map { run in
            let byDay = Dictionary(run.days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
            func total(_ day: Int) -> String {
                byDay[day]?.figures.map { DisplayFormat.thousands($0.audienceTotal) } ?? "—"
            }
            var facts = [
                Field(name: "Opening", value: run.openDate?.description ?? "—"),
                Field(name: "Day 7", value: total(7)), Field(name: "Day 14", value: total(14)),
                Field(
                    name: "Drop",
                    value: run.summary.secondWeekDrop.value.map { ViewFormat.percent($0 * 100) } ?? "—"),
            ]
            for step in steps {
                let day = run.milestones.first { $0.audience == step }?.day
                facts.append(Field(name: Self.step(step), value: day.map { "day \($0)" } ?? "—"))
            }
            return Item(title: run.title, movieCode: run.movieCode, facts: facts)
        }
    }

    /// `audience` as Korean press writes a step: 10만, 100만, 1,000만.
    package static func step(_ audience: Int64) -> String {
        "\(DisplayFormat.thousands(audience / 10_000))만"
    }

    /// The steps a comparison lists: 100만, 300만, 500만 and each 1,000만 any film reached (10만, 30만 and 50만 when
    /// none passed a million).
    static func comparedSteps(_ runs: [FilmRun]) -> [Int64] {
        let reached = Set(runs.flatMap(\.milestones).map(\.audience))
        let cited = reached.filter { $0 == 1_000_000 || $0 == 3_000_000 || $0 == 5_000_000 || $0 % 10_000_000 == 0 }
        if !cited.isEmpty { return cited.sorted() }
        return reached.filter { $0 == 100_000 || $0 == 300_000 || $0 == 500_000 }.sorted()
    }

    /// The run's days: from its first listed day to its last, and the days missing.
    private static func span(_ run: FilmRun) -> String? {
        guard let first = run.days.first, let last = run.days.last else {
            return "no day listed through \(run.through)"
        }
        let missing = run.days.filter { $0.figures == nil }.count
        let gaps = missing == 0 ? "" : ", \(missing) day\(missing == 1 ? "" : "s") in no list"
        return "day \(first.day) (\(first.date)) to day \(last.day) (\(last.date))\(gaps)"
    }

    private static func covered(_ coverage: RunCoverage) -> String {
        let days = coverage.from.map { from in "\(from) – \(coverage.to.map(\.description) ?? "")" } ?? ""
        let lists = coverage.lists.map(\.rawValue).joined(separator: ", ")
        // Not the calls made: calls in flight when a run ends may finish or not, and a post says the same each time.
        return "KOBIS daily lists \(days) (\(lists.isEmpty ? "none" : lists)), stopped: \(coverage.stopped.rawValue)"
    }

    private static func comparedCoverage(_ coverage: [RunCoverage]) -> String? {
        guard !coverage.isEmpty else { return nil }
        let stops = Set(coverage.map(\.stopped.rawValue)).sorted().joined(separator: ", ")
        return "KOBIS daily lists (stopped: \(stops)); day 1 is each film's opening"
    }

    /// A figure, or a dash with why it cannot be had.
    private static func say<Value>(_ figure: Figure<Value>, _ format: (Value) -> String) -> String {
        switch figure {
        case .value(let value): format(value)
        case .unavailable(let reason): "— (\(reason))"
        }
    }

    /// Two decimals.
    private static func ratio(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
