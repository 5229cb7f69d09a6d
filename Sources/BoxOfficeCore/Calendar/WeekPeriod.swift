/// Which part of a week a weekly box office covers (KOBIS `weekGb`).
package enum WeekPeriod: String, Sendable, Hashable, CaseIterable {
    /// Monday to Sunday (`weekGb=0`).
    case week
    /// Friday to Sunday (`weekGb=1`, KOBIS's default).
    case weekend
    /// Monday to Thursday (`weekGb=2`).
    case weekdays

    package var weekGb: String {
        switch self {
        case .week: "0"
        case .weekend: "1"
        case .weekdays: "2"
        }
    }

    /// The days this period covers in the week of `date`.
    package func range(containing date: CalendarDate) -> (start: CalendarDate, end: CalendarDate) {
        let monday = date.adding(days: 1 - date.weekday)
        switch self {
        case .week: return (monday, monday.adding(days: 6))
        case .weekend: return (monday.adding(days: 4), monday.adding(days: 6))
        case .weekdays: return (monday, monday.adding(days: 3))
        }
    }
}
