import Foundation
import JSONCore

/// One framed input line after parsing, as the reader thread hands it on.
enum ParsedLine: Sendable {
    case message(JSONValue)
    case parseError(JSONParseError)
    /// Longer than `--max-line-bytes`; its bytes were never kept.
    case tooLong
}
