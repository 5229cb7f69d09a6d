/// A film's run rebuilt from daily lists: one entry per calendar day from the first day the film was listed to the
/// last, numbered from its opening day (`day` 1; previews are 0 or less), the days it crossed each audience step,
/// and the summary people argue about (the second week's drop, the total at day 49 over day 14).
///
/// Only KOBIS's own figures are used: a day the film is in no list fetched stays a gap with its reason, never
/// interpolated, and every figure of the summary that needs such a day is absent with the reason (``Figure``).
package struct FilmRun: Sendable, Hashable {
    package var movieCode: String
    package var title: String
    /// KOBIS's opening date; nil when KOBIS has none (day numbers then count from the first listed day).
    package var openDate: CalendarDate?
    /// The last day asked about.
    package var through: CalendarDate
    package var days: [RunDay]
    package var milestones: [Milestone]
    package var summary: RunSummary

    /// The run from what each day's lists said of the film: `listed` by day (the row and the list it came from),
    /// `missing` for the days in between that no list fetched had it (with why). Days outside the first and last
    /// listed day are not part of the run.
    package init(
        movieCode: String, title: String, openDate: CalendarDate?, through: CalendarDate,
        listed: [CalendarDate: RunDay.Figures], missing: [CalendarDate: String]
    ) {
        (self.movieCode, self.title, self.openDate, self.through) = (movieCode, title, openDate, through)
        var days: [RunDay] = []
        if let first = listed.keys.min(), let last = listed.keys.max() {
            let origin = openDate ?? first
            var date = first
            while date <= last {
                let day = date.dayNumber - origin.dayNumber + 1
                if let figures = listed[date] {
                    days.append(RunDay(date: date, day: day, listing: .listed(figures)))
                } else {
                    days.append(RunDay(date: date, day: day, listing: .missing(missing[date] ?? "not_listed")))
                }
                date = date.adding(days: 1)
            }
        }
        self.days = days
        milestones = Milestone.reached(in: days)
        summary = RunSummary(days)
    }
}

/// One calendar day of a run: the film's row in a list, or why there is none.
package struct RunDay: Sendable, Hashable {
    /// Which daily list a row came from: the overall top 10 first, then the narrower lists KOBIS ranks separately.
    package enum List: String, Sendable, Hashable, CaseIterable {
        case all, korean, foreign, diversity, commercial
    }

    /// The film's figures on the day, as the list gave them.
    package struct Figures: Sendable, Hashable {
        package var rank: Int
        package var list: List
        package var audience: Int64
        package var audienceTotal: Int64
        package var sales: Int64
        package var salesTotal: Int64
        package var screens: Int64
        package var shows: Int64

        package init(
            rank: Int, list: List, audience: Int64, audienceTotal: Int64, sales: Int64, salesTotal: Int64,
            screens: Int64, shows: Int64
        ) {
            (self.rank, self.list, self.audience, self.audienceTotal) = (rank, list, audience, audienceTotal)
            (self.sales, self.salesTotal, self.screens, self.shows) = (sales, salesTotal, screens, shows)
        }

        /// A box office entry's figures, from `list`.
        package init(_ entry: BoxOfficeEntry, list: List) {
            self.init(
                rank: entry.rank, list: list, audience: entry.audience.amount, audienceTotal: entry.audience.total,
                sales: entry.sales.amount, salesTotal: entry.sales.total, screens: entry.screens, shows: entry.shows)
        }
    }

    package enum Listing: Sendable, Hashable {
        case listed(Figures)
        /// In no list fetched that day; the reason (`not_listed`: every list was asked and none had it).
        case missing(String)
    }

    package var date: CalendarDate
    /// 1 on the opening day; previews are 0 or less.
    package var day: Int
    package var listing: Listing

    package var figures: Figures? {
        switch listing {
        case .listed(let figures): return figures
        case .missing: return nil
        }
    }
}

/// The first listed day a film's running total reached an audience step.
package struct Milestone: Sendable, Hashable {
    package var audience: Int64
    package var date: CalendarDate
    package var day: Int

    /// The steps: every 100,000 below the first million, then every million.
    package static func steps(upTo total: Int64) -> [Int64] {
        var steps: [Int64] = []
        var step: Int64 = 100_000
        while step <= total {
            steps.append(step)
            step += step < 1_000_000 ? 100_000 : 1_000_000
        }
        return steps
    }

    /// Each step the running total reached, at the first listed day at or over it (a step crossed on a missing day
    /// is given the next listed day: the day it is first seen, which is what KOBIS's figures can say).
    static func reached(in days: [RunDay]) -> [Milestone] {
        // A plain loop: the same with compactMap over the days' figures crashes Swift 6.3.1's optimizer
        // (CopyPropagation: "Found outside of lifetime use").
        var milestones: [Milestone] = []
        var next: Int64 = 100_000
        for day in days {
            guard case .listed(let figures) = day.listing else { continue }
            while figures.audienceTotal >= next {
                milestones.append(Milestone(audience: next, date: day.date, day: day.day))
                next += next < 1_000_000 ? 100_000 : 1_000_000
            }
        }
        return milestones
    }
}
