import ArgumentParser
import BoxOfficeViews
import BoxOfficeWorker

/// The options `daily` and `weekly` share: the date or a range, filters, parts, layout, refresh and a call budget.
/// Parsed here, handed over as ``BoxOfficeFlags``; their meaning and rules are the session's and the method's.
struct BoxOfficeOptions: ParsableArguments {
    @Argument(help: "The day: YYYY-MM-DD, YYYYMMDD, yesterday or today-N (default: yesterday in Seoul).")
    var date: String?

    @Option(help: ArgumentHelp("Export a range from this day (with --to).", valueName: "date"))
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

    @Option(
        help: ArgumentHelp(
            "A region: its KOBIS code or its name (0105001, 서울, Seoul, …; `codes region` lists them).",
            valueName: "region"))
    var area: String?

    @Flag(help: "Also fetch every entry's details (concurrently).")
    var withDetails = false

    @Flag(help: "Also fetch every entry's poster (concurrently).")
    var withPosters = false

    @Flag(help: "Go upstream even when the cache has a fresh answer.")
    var refresh = false

    @Option(help: "list or grid.")
    var layout: ListLayout = .list

    @Option(help: "Grid posters on a terminal.")
    var images: TerminalGraphics.Choice = .auto

    @Option(
        help: ArgumentHelp(
            "For a range: at most this many KOBIS calls now (exit 2 when partial; run again to resume).",
            valueName: "n"))
    var maxCalls: Int?

    @Flag(
        help:
            "For a range in ndjson: end with {\"missing\":[…],\"written\":N,\"expected\":M}, the periods not written."
    )
    var missing = false

    /// The flags as the session takes them.
    var flags: BoxOfficeFlags {
        var flags = BoxOfficeFlags(date: date, limit: limit)
        flags.from = from
        flags.to = to
        flags.korean = korean
        flags.foreign = foreign
        flags.diversity = diversity
        flags.commercial = commercial
        flags.area = area
        flags.withDetails = withDetails
        flags.withPosters = withPosters
        flags.refresh = refresh
        flags.layout = layout
        flags.images = images
        flags.maxCalls = maxCalls
        flags.missing = missing
        return flags
    }
}
