/// Runs side by side, aligned by `day` (day 1 each film's opening): each film's day N, and the day each reached each
/// audience step.
package struct FilmComparison: Sendable, Hashable {
    /// Day N of every film: its run day, or nil when day N is outside its run.
    package struct Day: Sendable, Hashable {
        package var day: Int
        package var films: [RunDay?]
    }

    /// An audience step and the day each film reached it (nil: not reached in its run).
    package struct Step: Sendable, Hashable {
        package var audience: Int64
        package var days: [Int?]
    }

    package var runs: [FilmRun]
    /// From the earliest day of any run to the latest.
    package var days: [Day]
    /// Every step any film reached, in order.
    package var steps: [Step]

    package init(_ runs: [FilmRun]) {
        self.runs = runs
        let byDay = runs.map { run in Dictionary(run.days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let first = runs.compactMap { $0.days.first?.day }.min()
        let last = runs.compactMap { $0.days.last?.day }.max()
        if let first, let last {
            days = (first...last).map { day in Day(day: day, films: byDay.map { $0[day] }) }
        } else {
            days = []
        }
        let reached = runs.map { run in
            Dictionary(run.milestones.map { ($0.audience, $0.day) }, uniquingKeysWith: { first, _ in first })
        }
        let top = runs.flatMap(\.milestones).map(\.audience).max() ?? 0
        steps = Milestone.steps(upTo: top).map { step in Step(audience: step, days: reached.map { $0[step] }) }
    }
}
