import ArgumentParser
import BoxOfficeViews
import BoxOfficeWorker

extension CLIFormat: ExpressibleByArgument {}
extension TerminalStyle.Choice: ExpressibleByArgument {}

/// How a command shows what it got: the apps' screens, or data for programs.
struct DisplayOptions: ParsableArguments {
    @Option(
        help: """
            text (screens), json (the result), ndjson, csv; or, for daily, weekly, movie, search, run and compare, to post.
            """)
    var format: CLIFormat = .text

    @Flag(help: "With --format csv: start with a UTF-8 byte order mark, so spreadsheets read Korean correctly.")
    var excel = false

    @Option(
        help: ArgumentHelp(
            "Write html, png or messages to this file (a range's html: a folder).",
            valueName: "path"))
    var out: String?

    @Option(help: "auto (only on a terminal, never with NO_COLOR), always or never.")
    var color: TerminalStyle.Choice = .auto

    /// What the session needs of these.
    var choice: CLIDisplay { CLIDisplay(format: format, excel: excel, out: out) }
}
