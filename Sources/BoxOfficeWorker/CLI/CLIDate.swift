package import BoxOfficeCore

/// A date as a person types it: `YYYY-MM-DD`, `YYYYMMDD`, `yesterday`, `today`, or `today-N`, checked against what
/// KOBIS can have (2003-11-11 to today in Seoul).
package enum CLIDate {
    /// Why a date was refused: a one-line message for exit 64.
    package struct Invalid: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The day `text` names, relative to `today` (Seoul).
    package static func parse(_ text: String, today: CalendarDate) throws(Invalid) -> CalendarDate {
        let lowered = text.lowercased()
        let date: CalendarDate
        if lowered == "yesterday" {
            date = today.adding(days: -1)
        } else if lowered == "today" {
            date = today
        } else if lowered.hasPrefix("today-"), let days = Int(lowered.dropFirst(6)), days >= 0 {
            date = today.adding(days: -days)
        } else if let parsed = CalendarDate(text) {
            date = parsed
        } else {
            throw Invalid(description: "\"\(text)\" is not a date: use YYYY-MM-DD, YYYYMMDD, yesterday or today-N")
        }
        guard date <= today else {
            throw Invalid(description: "\(date) is in the future (today in Seoul is \(today))")
        }
        guard date >= SeoulCalendar.earliest else {
            throw Invalid(description: "\(date) is before \(SeoulCalendar.earliest), the first day KOBIS has")
        }
        return date
    }

    /// The days from `from` to `to`, both included, after checking that the range runs forward.
    package static func range(from: CalendarDate, to: CalendarDate) throws(Invalid) -> [CalendarDate] {
        guard from <= to else { throw Invalid(description: "--from \(from) is after --to \(to)") }
        var days: [CalendarDate] = []
        var day = from
        while day <= to {
            days.append(day)
            day = day.adding(days: 1)
        }
        return days
    }
}
