import BoxOfficeCore
import BoxOfficeMethods
package import BoxOfficeViews

/// The flags `daily` and `weekly` share, as the command line gave them: the date or a range, filters, parts,
/// refresh and a call budget. The session turns them into the method's input; every rule of the method (the date's
/// range, the limit, the area code) is checked by the method itself.
package struct BoxOfficeFlags: Sendable {
    package var date: String?
    package var from: String?
    package var to: String?
    package var limit: Int
    package var korean = false
    package var foreign = false
    package var diversity = false
    package var commercial = false
    package var area: String?
    package var withDetails = false
    package var withPosters = false
    package var refresh = false
    package var layout: ListLayout = .list
    /// `--images`: the grid's posters drawn by the terminal.
    package var images: TerminalGraphics.Choice = .auto
    package var maxCalls: Int?
    /// `--missing`: end a range's NDJSON with the periods not written.
    package var missing = false

    package init(date: String?, limit: Int) {
        self.date = date
        self.limit = limit
    }

    /// The method's input for one day (or the period containing it), after the flags' own rules: pairs that
    /// exclude each other.
    func input(date: CalendarDate?, period: WeekPeriod?) throws(CLIRefusal) -> BoxOfficeMethod.Input {
        if korean && foreign { throw CLIRefusal("--korean and --foreign exclude each other") }
        if diversity && commercial {
            throw CLIRefusal("--diversity and --commercial exclude each other")
        }
        var include: Set<IncludedParts.Part> = []
        if withDetails { include.insert(.detail) }
        if withPosters { include.insert(.poster) }
        return BoxOfficeMethod.Input(
            date: date, period: period, limit: limit,
            filters: BoxOfficeService.Filters(
                multiMovie: diversity ? true : commercial ? false : nil,
                nation: korean ? .korean : foreign ? .foreign : nil,
                // A person's spelling (`seoul`, ` 서울 `) becomes the region's code; anything else goes on as typed,
                // for the method to refuse as it refuses it on every face.
                area: area.map { Region.typed($0)?.code ?? $0 }),
            include: include, refresh: refresh)
    }

    /// The range's days, or nil without --from/--to.
    func range(today: CalendarDate) throws(CLIRefusal) -> [CalendarDate]? {
        switch (from, to) {
        case (nil, nil): return nil
        case (let from?, let to?):
            if date != nil { throw CLIRefusal("give a DATE or --from/--to, not both") }
            return try CLIDate.range(
                from: try CLIDate.parse(from, today: today), to: try CLIDate.parse(to, today: today))
        default:
            throw CLIRefusal("--from and --to go together")
        }
    }
}
