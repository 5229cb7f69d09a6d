import ArgumentParser
import BoxOfficeCore
import BoxOfficeWorker

/// The options `daily` and `weekly` share: the date or a range, filters, parts, layout, refresh and a call budget.
struct BoxOfficeOptions: ParsableArguments {
    @Argument(help: "The day: YYYY-MM-DD, YYYYMMDD, yesterday or today-N (default: yesterday in Seoul).")
    var date: String?

    @Option(help: ArgumentHelp("Export a range from this day (with --to; as csv, ndjson or json).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Export a range to this day (with --from).", valueName: "date"))
    var to: String?

    @Option(help: "How many entries, from the top (1–10).")
    var limit: Int = 10

    @Flag(help: "Korean films only.")
    var korean = false

    @Flag(help: "Foreign films only.")
    var foreign = false

    @Flag(help: "Diversity films only (KOBIS multiMovieYn=Y).")
    var diversity = false

    @Flag(help: "Commercial films only (KOBIS multiMovieYn=N).")
    var commercial = false

    @Option(help: ArgumentHelp("A KOBIS region code (0105001 Seoul, …).", valueName: "code"))
    var area: String?

    @Flag(help: "Also fetch every entry's details (concurrently).")
    var withDetails = false

    @Flag(help: "Also fetch every entry's poster (concurrently).")
    var withPosters = false

    @Flag(help: "Go upstream even when the cache has a fresh answer.")
    var refresh = false

    @Option(help: "list or grid.")
    var layout: BoxOfficeScreen.Layout = .list

    @Option(
        help: ArgumentHelp(
            "For a range: make at most this many KOBIS calls now (exit 2 when the range is left partial; run again to resume).",
            valueName: "n"))
    var maxCalls: Int?

    @Flag(
        help:
            "For a range in --format ndjson: end with one line {\"missing\":[…],\"written\":N,\"expected\":M} naming every period not written (empty when none)."
    )
    var missing = false

    func filters() throws(CLIDate.Invalid) -> BoxOfficeService.Filters {
        if korean && foreign { throw CLIDate.Invalid(description: "--korean and --foreign exclude each other") }
        if diversity && commercial {
            throw CLIDate.Invalid(description: "--diversity and --commercial exclude each other")
        }
        guard (1...10).contains(limit) else { throw CLIDate.Invalid(description: "--limit must be from 1 to 10") }
        if let maxCalls, maxCalls < 0 { throw CLIDate.Invalid(description: "--max-calls must be 0 or more") }
        return BoxOfficeService.Filters(
            multiMovie: diversity ? true : commercial ? false : nil,
            nation: korean ? .korean : foreign ? .foreign : nil, area: area)
    }

    var include: Set<String> {
        var parts: Set<String> = []
        if withDetails { parts.insert("detail") }
        if withPosters { parts.insert("poster") }
        return parts
    }

    /// The range's days, or nil without --from/--to.
    func range(today: CalendarDate) throws(CLIDate.Invalid) -> [CalendarDate]? {
        switch (from, to) {
        case (nil, nil): return nil
        case (let from?, let to?):
            if date != nil { throw CLIDate.Invalid(description: "give a DATE or --from/--to, not both") }
            return try CLIDate.range(
                from: try CLIDate.parse(from, today: today), to: try CLIDate.parse(to, today: today))
        default:
            throw CLIDate.Invalid(description: "--from and --to go together")
        }
    }

    /// What `daily` and `weekly` do with these options in `session`: a range export when --from/--to are given
    /// (the spans `spans` makes of the days), else one box office (the span `span` makes of DATE, which `check`
    /// may refuse).
    func run(
        _ session: CLISession, display: DisplayOptions, span: (CalendarDate?) -> BoxOfficeRequest.Span,
        spans: ([CalendarDate]) -> [BoxOfficeRequest.Span], check: (CalendarDate) throws(CLIDate.Invalid) -> Void
    ) async throws(CLIDate.Invalid) -> Int32 {
        let filters = try filters()
        if missing && from == nil { throw CLIDate.Invalid(description: "--missing goes with --from/--to") }
        if let days = try range(today: session.today) {
            guard display.format != .text else {
                throw CLIDate.Invalid(description: "a range is exported as --format csv, ndjson or json")
            }
            if missing && display.format != .ndjson {
                throw CLIDate.Invalid(description: "--missing goes with --format ndjson")
            }
            let requests = spans(days).map {
                BoxOfficeRequest(span: $0, limit: limit, filters: filters, refresh: refresh)
            }
            return await session.export(
                requests, format: display.format, excel: display.excel, maxCalls: maxCalls, missingSummary: missing)
        }
        let day = try date.map { text throws(CLIDate.Invalid) in try CLIDate.parse(text, today: session.today) }
        if let day { try check(day) }
        let request = BoxOfficeRequest(span: span(day), limit: limit, filters: filters, refresh: refresh)
        return await session.boxOffice(
            request, include: include, format: display.format, layout: layout, excel: display.excel)
    }
}
