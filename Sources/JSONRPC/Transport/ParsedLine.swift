import Foundation
import JSONCore

/// One framed input line after parsing, as the reader thread hands it on.
enum ParsedLine: Sendable {
    case message(JSONValue)
    case parseError(JSONParseError)
    /// Longer than `--max-line-bytes`; its bytes were never kept.
    case tooLong
    /// A blank line, kept only for job lines (``JobLines``): every line of a filter gets its outcome.
    case blank
    /// A job line that is not JSON (it does not start with `{`, `[` or `"`): a bare string, trimmed; nil when it
    /// is not UTF-8.
    case text(String?)
}
