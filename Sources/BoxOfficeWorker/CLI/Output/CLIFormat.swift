/// `--format`: the screens for people (`text`), or the data for programs.
package enum CLIFormat: String, Sendable, CaseIterable {
    /// The apps' screens.
    case text
    /// The method's result exactly as the worker answers it (the same schema).
    case json
    /// One JSON object per line: a box office's entries, a search's movies.
    case ndjson
    /// A header row, then one row per entry (UTF-8; with a BOM only when `--excel` asks for one).
    case csv
}
