/// A figure of a run's summary, or why the listed days cannot give it (a day it needs is missing or not yet run).
package enum Figure<Value: Sendable & Hashable>: Sendable, Hashable {
    case value(Value)
    case unavailable(String)

    package var value: Value? {
        if case .value(let value) = self { value } else { nil }
    }

    /// Both figures, or the first one's reason.
    func and<Other: Sendable & Hashable>(_ other: Figure<Other>) -> Figure<Pair<Value, Other>> {
        switch (self, other) {
        case (.value(let first), .value(let second)): .value(Pair(first: first, second: second))
        case (.unavailable(let reason), _), (_, .unavailable(let reason)): .unavailable(reason)
        }
    }

    func map<Other: Sendable & Hashable>(_ transform: (Value) -> Figure<Other>) -> Figure<Other> {
        switch self {
        case .value(let value): transform(value)
        case .unavailable(let reason): .unavailable(reason)
        }
    }
}

/// Two figures taken together.
package struct Pair<First: Sendable & Hashable, Second: Sendable & Hashable>: Sendable, Hashable {
    package var first: First
    package var second: Second
}

/// What people say of a run: the opening and the peak day, the first and second weeks (days 1–7 and 8–14) and the
/// second week's drop, the totals at day 14 and day 49 and their ratio (뒷심, staying power), the best weekend, the
/// screens at the peak and the audience per show.
///
/// Weekly totals come from the running totals (`audienceTotal` at day 7, less what came before day 1), so a gap
/// inside a week does not hide it as long as its ends are listed; a figure whose days are not listed is
/// unavailable with the day and its reason.
package struct RunSummary: Sendable, Hashable {
    /// One listed day's audience.
    package struct DayAudience: Sendable, Hashable {
        package var date: CalendarDate
        package var day: Int
        package var audience: Int64
    }

    /// A Friday-to-Sunday weekend, each of its days listed.
    package struct Weekend: Sendable, Hashable {
        package var friday: CalendarDate
        package var audience: Int64
    }

    package var opening: Figure<DayAudience>
    package var peak: Figure<DayAudience>
    package var firstWeek: Figure<Int64>
    package var secondWeek: Figure<Int64>
    /// 1 − second week ÷ first week: 0.4 is a 40 % drop.
    package var secondWeekDrop: Figure<Double>
    package var totalAtDay14: Figure<Int64>
    package var totalAtDay49: Figure<Int64>
    /// The total at day 49 over the total at day 14 (뒷심).
    package var stayingPower: Figure<Double>
    package var bestWeekend: Figure<Weekend>
    package var screensAtPeak: Figure<Int64>
    /// Audience over shows, summed over the listed days.
    package var audiencePerShow: Figure<Double>

    init(_ days: [RunDay]) {
        let byDay = Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        func figures(_ day: Int) -> Figure<RunDay.Figures> {
            guard let found = byDay[day] else { return .unavailable("day \(day) is outside the listed days") }
            switch found.listing {
            case .listed(let figures): return .value(figures)
            case .missing(let reason): return .unavailable("day \(day) (\(found.date)) is missing: \(reason)")
            }
        }
        // A plain loop: a compactMap over the days' figures crashes Swift 6.3.1's optimizer (see Milestone.reached).
        var listed: [(RunDay, RunDay.Figures)] = []
        for day in days {
            if case .listed(let figures) = day.listing { listed.append((day, figures)) }
        }
        opening = figures(1).map { .value(DayAudience(date: byDay[1]!.date, day: 1, audience: $0.audience)) }
        let top = listed.max { $0.1.audience < $1.1.audience }
        peak =
            top.map { .value(DayAudience(date: $0.0.date, day: $0.0.day, audience: $0.1.audience)) }
            ?? .unavailable("no day is listed")
        screensAtPeak = top.map { .value($0.1.screens) } ?? .unavailable("no day is listed")
        // What came before day 1 (previews) is day 1's total less its own audience.
        let beforeOpening = figures(1).map { .value($0.audienceTotal - $0.audience) }
        firstWeek = figures(7).and(beforeOpening).map { .value($0.first.audienceTotal - $0.second) }
        secondWeek = figures(14).and(figures(7)).map { .value($0.first.audienceTotal - $0.second.audienceTotal) }
        secondWeekDrop = secondWeek.and(firstWeek).map { weeks -> Figure<Double> in
            weeks.second > 0
                ? .value(1 - Double(weeks.first) / Double(weeks.second))
                : .unavailable("the first week has no audience")
        }
        totalAtDay14 = figures(14).map { .value($0.audienceTotal) }
        totalAtDay49 = figures(49).map { .value($0.audienceTotal) }
        stayingPower = totalAtDay49.and(totalAtDay14).map { totals -> Figure<Double> in
            totals.second > 0
                ? .value(Double(totals.first) / Double(totals.second)) : .unavailable("day 14's total is 0")
        }
        let weekends = listed.compactMap { day, figures -> Weekend? in
            // 1970-01-01 was a Thursday: a Friday's day number leaves 1 after sevens.
            guard ((day.date.dayNumber % 7) + 7) % 7 == 1 else { return nil }
            let rest = [1, 2].map { byDay[day.day + $0]?.figures?.audience }
            guard let saturday = rest[0], let sunday = rest[1] else { return nil }
            return Weekend(friday: day.date, audience: figures.audience + saturday + sunday)
        }
        bestWeekend =
            weekends.max { $0.audience < $1.audience }.map { .value($0) }
            ?? .unavailable("no weekend has its Friday, Saturday and Sunday listed")
        let shows = listed.reduce(Int64(0)) { $0 + $1.1.shows }
        audiencePerShow =
            shows > 0
            ? .value(Double(listed.reduce(Int64(0)) { $0 + $1.1.audience }) / Double(shows))
            : .unavailable("no listed day has shows")
    }
}
