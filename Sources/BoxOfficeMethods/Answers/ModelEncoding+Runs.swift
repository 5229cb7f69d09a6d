package import BoxOfficeCore
package import JSONCore

/// Runs and comparisons as `movie.run`'s and `movie.compare`'s results (protocol.md, "A film's run").
extension ModelEncoding {
    /// `movie.run`'s result: the film, its days, milestones, summary and what the scan covered.
    package static func run(_ made: FilmRunner.Made, offline: Bool) -> JSONValue {
        var object = film(made.run)
        object["days"] = .array(made.run.days.map(runDay))
        object["milestones"] = .array(made.run.milestones.map(milestone))
        object["summary"] = summary(made.run.summary)
        object["coverage"] = coverage(made, offline: offline)
        return .object(object)
    }

    /// `movie.compare`'s result: each film's milestones, summary and coverage, then the films by day N and the day
    /// each reached each step.
    package static func comparison(_ made: [FilmRunner.Made], through: CalendarDate, offline: Bool) -> JSONValue {
        let comparison = FilmComparison(made.map(\.run))
        let films: [JSONValue] = made.map { made in
            var object = film(made.run)
            object["milestones"] = .array(made.run.milestones.map(milestone))
            object["summary"] = summary(made.run.summary)
            object["coverage"] = coverage(made, offline: offline)
            return .object(object)
        }
        let days: [JSONValue] = comparison.days.map { day in
            [
                "day": .int(day.day),
                "films": .array(
                    day.films.map { runDay in
                        guard let runDay else { return .null }
                        var object: JSONObject = ["date": .string(runDay.date.description)]
                        switch runDay.listing {
                        case .listed(let figures):
                            object["audience"] = .integer(figures.audience)
                            object["audienceTotal"] = .integer(figures.audienceTotal)
                        case .missing(let reason):
                            object["missing"] = .string(reason)
                        }
                        return .object(object)
                    }),
            ]
        }
        let steps: [JSONValue] = comparison.steps.map { step in
            ["audience": .integer(step.audience), "days": .array(step.days.map(optionalInt))]
        }
        return [
            "through": .string(through.description), "films": .array(films), "days": .array(days),
            "milestones": .array(steps),
        ]
    }

    private static func film(_ run: FilmRun) -> JSONObject {
        [
            "movieCode": .string(run.movieCode), "title": .string(run.title), "openDate": date(run.openDate),
            "through": .string(run.through.description),
        ]
    }

    /// A listed day with every figure, or a missing one with its reason and no figure.
    static func runDay(_ day: RunDay) -> JSONValue {
        var object: JSONObject = ["date": .string(day.date.description), "day": .int(day.day)]
        switch day.listing {
        case .listed(let figures):
            object["rank"] = .int(figures.rank)
            object["list"] = .string(figures.list.rawValue)
            object["audience"] = .integer(figures.audience)
            object["audienceTotal"] = .integer(figures.audienceTotal)
            object["sales"] = .integer(figures.sales)
            object["salesTotal"] = .integer(figures.salesTotal)
            object["screens"] = .integer(figures.screens)
            object["shows"] = .integer(figures.shows)
        case .missing(let reason):
            object["missing"] = .string(reason)
        }
        return .object(object)
    }

    static func milestone(_ milestone: Milestone) -> JSONValue {
        [
            "audience": .integer(milestone.audience), "date": .string(milestone.date.description),
            "day": .int(milestone.day),
        ]
    }

    /// Each figure, `null` when it cannot be had, and `unavailable` naming why for each such one.
    static func summary(_ summary: RunSummary) -> JSONValue {
        var object: JSONObject = [:]
        var unavailable: JSONObject = [:]
        func put<Value>(_ name: String, _ figure: Figure<Value>, _ encode: (Value) -> JSONValue) {
            switch figure {
            case .value(let value): object[name] = encode(value)
            case .unavailable(let reason):
                object[name] = .null
                unavailable[name] = .string(reason)
            }
        }
        let day = { (day: RunSummary.DayAudience) -> JSONValue in
            ["date": .string(day.date.description), "day": .int(day.day), "audience": .integer(day.audience)]
        }
        put("opening", summary.opening, day)
        put("peak", summary.peak, day)
        put("firstWeek", summary.firstWeek) { .integer($0) }
        put("secondWeek", summary.secondWeek) { .integer($0) }
        put("secondWeekDrop", summary.secondWeekDrop) { .real(rounded($0)) }
        put("totalAtDay14", summary.totalAtDay14) { .integer($0) }
        put("totalAtDay49", summary.totalAtDay49) { .integer($0) }
        put("stayingPower", summary.stayingPower) { .real(rounded($0)) }
        put("bestWeekend", summary.bestWeekend) { weekend in
            [
                "friday": .string(weekend.friday.description),
                "sunday": .string(weekend.friday.adding(days: 2).description), "audience": .integer(weekend.audience),
            ]
        }
        put("screensAtPeak", summary.screensAtPeak) { .integer($0) }
        put("audiencePerShow", summary.audiencePerShow) { .real(rounded($0)) }
        object["unavailable"] = .object(unavailable)
        return .object(object)
    }

    /// Four decimals: a ratio's noise past them is the division's, not KOBIS's.
    private static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }

    static func coverage(_ made: FilmRunner.Made, offline: Bool) -> JSONValue {
        let coverage = made.coverage
        return [
            "from": date(coverage.from), "to": date(coverage.to), "daysLooked": .int(coverage.daysLooked),
            "failedDays": .int(coverage.failedDays),
            "plannedCalls": .int(made.plan.uncached), "calls": .int(coverage.calls),
            "lists": .array(coverage.lists.map { .string($0.rawValue) }), "stopped": .string(coverage.stopped.rawValue),
            "offline": .bool(offline),
        ]
    }
}
