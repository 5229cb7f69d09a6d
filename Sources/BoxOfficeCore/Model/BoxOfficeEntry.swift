/// One ranked movie of a box office.
package struct BoxOfficeEntry: Sendable, Hashable {
    package enum Trend: String, Sendable, Hashable {
        case new, up, down, same
    }

    package var rank: Int
    /// > 0: moved up that many places (KOBIS `rankInten`).
    package var rankChange: Int
    package var trend: Trend
    package var movieCode: String
    package var title: String
    package var openDate: CalendarDate?
    package var audience: Figures
    package var sales: Figures
    /// `salesShare`: percent of the day's (or period's) total sales.
    package var salesShare: Double
    package var screens: Int64
    package var shows: Int64

    /// Count, change since the previous period, its rate in percent, and the running total.
    package struct Figures: Sendable, Hashable {
        package var amount: Int64
        package var change: Int64
        package var changeRate: Double
        package var total: Int64
    }

    /// The list screen's strings: rank, `신작`/`▲n`/`▼n`/`-`, counts with thousands separators.
    package var display: Display {
        Display(
            rank: String(rank),
            rankChange: DisplayFormat.rankChange(trend: trend, change: rankChange),
            audience: DisplayFormat.thousands(audience.amount),
            audienceTotal: DisplayFormat.thousands(audience.total),
            sales: DisplayFormat.thousands(sales.amount)
        )
    }

    package struct Display: Sendable, Hashable {
        package var rank: String
        package var rankChange: String
        package var audience: String
        package var audienceTotal: String
        package var sales: String
    }
}
