package import BoxOfficeCore

/// A date as a person types it: `YYYY-MM-DD`, `YYYYMMDD`, `yesterday`, `today`, or `today-N` (days before today in
/// Seoul). Only the form is read here: which days a box office has is the method's rule, with the method's message.
package enum CLIDate {
    /// The day `text` names, relative to `today` (Seoul).
    package static func parse(_ text: String, today: CalendarDate) throws(CLIRefusal) -> CalendarDate {
        let lowered = text.lowercased()
        if lowered == "yesterday" { return today.adding(days: -1) }
        if lowered == "today" { return today }
        if lowered.hasPrefix("today-"), let days = Int(lowered.dropFirst(6)), days >= 0 {
            return today.adding(days: -days)
        }
        guard let date = CalendarDate(text) else {
            throw CLIRefusal("\"\(text)\" is not a date: use YYYY-MM-DD, YYYYMMDD, yesterday or today-N")
        }
        return date
    }

    /// The days from `from` to `to`, both included, after checking that the range runs forward.
    package static func range(from: CalendarDate, to: CalendarDate) throws(CLIRefusal) -> [CalendarDate] {
        guard from <= to else { throw CLIRefusal("--from \(from) is after --to \(to)") }
        var days: [CalendarDate] = []
        var day = from
        while day <= to {
            days.append(day)
            day = day.adding(days: 1)
        }
        return days
    }
}
