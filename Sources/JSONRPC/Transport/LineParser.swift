import FoundationEssentials
import Glibc
import JSONCore

/// Frames input chunks into lines and parses each (Jansson): the reader's work, one chunk at a time. Blank lines are
/// dropped; an over-long line becomes ``ParsedLine/tooLong`` and a malformed one ``ParsedLine/parseError(_:)``.
///
/// Job lines (``JobLines``) keep every line: a blank one is ``ParsedLine/blank``, and one that does not start with
/// `{`, `[` or `"` is a bare string (``ParsedLine/text(_:)``) and never goes to Jansson, so `20240101` stays the text
/// it was instead of becoming a number.
struct LineParser {
    private var framer: LineFramer
    private let jobs: Bool

    init(maxLineBytes: Int, jobs: Bool = false) {
        framer = LineFramer(maxLineBytes: maxLineBytes)
        self.jobs = jobs
    }

    /// The lines `chunk` completes, parsed, in order.
    mutating func lines(in chunk: UnsafeRawBufferPointer) -> [ParsedLine] {
        var lines: [ParsedLine] = []
        let jobs = jobs
        framer.feed(chunk) { Self.parse($0, jobs: jobs, into: &lines) }
        return lines
    }

    /// A last line that had no newline, at end of input.
    mutating func finish() -> [ParsedLine] {
        var lines: [ParsedLine] = []
        let jobs = jobs
        framer.finish { Self.parse($0, jobs: jobs, into: &lines) }
        return lines
    }

    private static func parse(_ event: LineFramer.Event, jobs: Bool, into lines: inout [ParsedLine]) {
        switch event {
        case .tooLong:
            lines.append(.tooLong)
        case .line(let bytes):
            guard !LineFramer.isBlank(bytes) else {
                if jobs { lines.append(.blank) }
                return
            }
            if jobs, let text = Self.bareText(bytes) {
                lines.append(.text(text))
                return
            }
            do throws(JSONParseError) {
                lines.append(.message(try JSONParser.parse(bytes)))
            } catch {
                lines.append(.parseError(error))
            }
        }
    }

    /// The trimmed text of a job line that is not JSON (`.some(nil)` when it is not UTF-8); nil for a JSON line.
    private static func bareText(_ bytes: UnsafeRawBufferPointer) -> String?? {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return nil }
        switch bytes[first] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""): return nil
        default: return .some(String(validating: bytes[first...last], as: UTF8.self))
        }
    }
}

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
