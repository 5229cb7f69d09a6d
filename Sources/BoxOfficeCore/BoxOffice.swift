/// A box office: one day, week, weekend or weekdays, with up to 10 entries.
public struct BoxOffice: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case daily, week, weekend, weekdays
    }

    public var kind: Kind
    /// KOBIS `boxofficeType`, trimmed ("일별 박스오피스").
    public var label: String
    public var start: CalendarDate
    public var end: CalendarDate
    /// KOBIS `yearWeekTime` ("201152"), weekly only.
    public var yearWeek: String?
    public var entries: [BoxOfficeEntry]
    public var source: Source
    /// What has been derived from the upstream body this box office was decoded from (nil when it is not cached):
    /// methods keep their serialized answers here.
    public var derived: DerivedValues?
}

/// One ranked movie of a box office.
public struct BoxOfficeEntry: Sendable, Hashable {
    public enum Trend: String, Sendable, Hashable {
        case new, up, down, same
    }

    public var rank: Int
    /// > 0: moved up that many places (KOBIS `rankInten`).
    public var rankChange: Int
    public var trend: Trend
    public var movieCode: String
    public var title: String
    public var openDate: CalendarDate?
    public var audience: Figures
    public var sales: Figures
    /// `salesShare`: percent of the day's (or period's) total sales.
    public var salesShare: Double
    public var screens: Int64
    public var shows: Int64

    /// Count, change since the previous period, its rate in percent, and the running total.
    public struct Figures: Sendable, Hashable {
        public var amount: Int64
        public var change: Int64
        public var changeRate: Double
        public var total: Int64
    }

    /// The list screen's strings: rank, `신작`/`▲n`/`▼n`/`-`, counts with thousands separators.
    public var display: Display {
        Display(
            rank: String(rank),
            rankChange: DisplayFormat.rankChange(trend: trend, change: rankChange),
            audience: DisplayFormat.thousands(audience.amount),
            audienceTotal: DisplayFormat.thousands(audience.total),
            sales: DisplayFormat.thousands(sales.amount)
        )
    }

    public struct Display: Sendable, Hashable {
        public var rank: String
        public var rankChange: String
        public var audience: String
        public var audienceTotal: String
        public var sales: String
    }
}
