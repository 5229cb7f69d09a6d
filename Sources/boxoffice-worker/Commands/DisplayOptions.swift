import ArgumentParser
import BoxOfficeWorker

extension CLIFormat: ExpressibleByArgument {}
extension BoxOfficeScreen.Layout: ExpressibleByArgument {}
extension TerminalStyle.Choice: ExpressibleByArgument {}

/// How a command shows what it got: the apps' screens, or data for programs.
struct DisplayOptions: ParsableArguments {
    @Option(
        help: """
            text (the screens), json (the worker's result), ndjson (one entry per line), csv; or, for daily, weekly, \
            movie and search, something to post: markdown, slack, discord, telegram or telegram-html messages, an \
            html page or a png card.
            """)
    var format: CLIFormat = .text

    @Flag(help: "With --format csv: start with a UTF-8 byte order mark, so spreadsheets read Korean correctly.")
    var excel = false

    @Option(
        help: ArgumentHelp(
            "With html, png or a chat format: the file to write (else stdout); with a range and html, the site's folder.",
            valueName: "path"))
    var out: String?

    @Option(help: "auto (only on a terminal, never with NO_COLOR), always or never.")
    var color: TerminalStyle.Choice = .auto

    /// What the session needs of these.
    var choice: CLIDisplay { CLIDisplay(format: format, excel: excel, out: out) }
}
