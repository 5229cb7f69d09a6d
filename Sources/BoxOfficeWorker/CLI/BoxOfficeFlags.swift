package import ArgumentParser
import BoxOfficeCore
import BoxOfficeMethods
package import BoxOfficeViews

/// The flags `daily` and `weekly` share, declared once: swift-argument-parser reads them from the command line (with
/// this help), the session turns them into the method's input, and a test builds them as a person would type them.
/// Every rule of the method (the date's range, the limit, the area code) is checked by the method itself.
package struct BoxOfficeFlags: ParsableArguments, Sendable {
    @Argument(help: "The day: YYYY-MM-DD, YYYYMMDD, yesterday or today-N (default: yesterday in Seoul).")
    package var date: String?

    @Option(help: ArgumentHelp("Export a range from this day (with --to).", valueName: "date"))
    package var from: String?

    @Option(help: ArgumentHelp("Export a range to this day (with --from).", valueName: "date"))
    package var to: String?

    @Option(help: "How many entries, from the top (1–10).")
    package var limit: Int = 10

    @Flag(help: "Korean films only.")
    package var korean = false

    @Flag(help: "Foreign films only.")
    package var foreign = false

    @Flag(help: "Diversity films only (KOBIS multiMovieYn=Y).")
    package var diversity = false

    @Flag(help: "Commercial films only (KOBIS multiMovieYn=N).")
    package var commercial = false

    @Option(
        help: ArgumentHelp(
            "A region: its KOBIS code or its name (0105001, 서울, Seoul, …; `codes region` lists them).",
            valueName: "region"))
    package var area: String?

    @Flag(help: "Also fetch every entry's details (concurrently).")
    package var withDetails = false

    @Flag(help: "Also fetch every entry's poster (concurrently).")
    package var withPosters = false

    @Flag(help: "Go upstream even when the cache has a fresh answer.")
    package var refresh = false

    @Option(help: "list or grid.")
    package var layout: ListLayout = .list

    /// `--images`: the grid's posters drawn by the terminal.
    @Option(help: "Grid posters on a terminal.")
    package var images: TerminalGraphics.Choice = .auto

    @Option(
        help: ArgumentHelp(
            "For a range: at most this many KOBIS calls now (exit 2 when partial; run again to resume).",
            valueName: "n"))
    package var maxCalls: Int?

    /// `--missing`: end a range's NDJSON with the periods not written.
    @Flag(
        help:
            "For a range in ndjson: end with {\"missing\":[…],\"written\":N,\"expected\":M}, the periods not written."
    )
    package var missing = false

    package init() {}

    /// Every flag with its value, for `daily`'s quick parse (no reflection): a parsable type's properties hold a
    /// value only once parsed or set, so this sets each one, the rest to the defaults their declarations give.
    /// QuickDailyTests counts the properties, so one added without its line here fails it.
    package init(date: String?, limit: Int, korean: Bool, foreign: Bool, layout: ListLayout) {
        // Set on a value made by `init()`, then assigned whole: set on `self` after `self.init()`, `limit` (a wrapped
        // property with a default) still held its parser definition when read, and reading it stopped the process.
        var flags = BoxOfficeFlags()
        flags.date = date
        flags.from = nil
        flags.to = nil
        flags.limit = limit
        flags.korean = korean
        flags.foreign = foreign
        flags.diversity = false
        flags.commercial = false
        flags.area = nil
        flags.withDetails = false
        flags.withPosters = false
        flags.refresh = false
        flags.layout = layout
        flags.images = .auto
        flags.maxCalls = nil
        flags.missing = false
        self = flags
    }

    /// The flags of `--limit LIMIT DATE` and nothing else (a test's, a caller's in process), through the parser:
    /// a parsable type's properties hold values only once parsed.
    package init(date: String?, limit: Int) {
        do {
            self = try Self.parse(["--limit", String(limit), "--"] + (date.map { [$0] } ?? []))
        } catch {
            preconditionFailure("the flags of a date and a limit always parse: \(error)")
        }
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

extension ListLayout: ExpressibleByArgument {}
extension TerminalGraphics.Choice: ExpressibleByArgument {}
