/// A box office: one day, week, weekend or weekdays, with up to 10 entries.
package struct BoxOffice: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case daily, week, weekend, weekdays
    }

    package var kind: Kind
    /// KOBIS `boxofficeType`, trimmed ("일별 박스오피스").
    package var label: String
    package var start: CalendarDate
    package var end: CalendarDate
    /// KOBIS `yearWeekTime` ("201152"), weekly only.
    package var yearWeek: String?
    package var entries: [BoxOfficeEntry]
    package var source: Source
}
