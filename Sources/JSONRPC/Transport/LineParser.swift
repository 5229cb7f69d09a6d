import JSONCore

/// Frames input chunks into lines and parses each (Jansson): the reader's work, one chunk at a time. Blank lines are
/// dropped; an over-long line becomes ``ParsedLine/tooLong`` and a malformed one ``ParsedLine/parseError(_:)``.
struct LineParser {
    private var framer: LineFramer

    init(maxLineBytes: Int) {
        framer = LineFramer(maxLineBytes: maxLineBytes)
    }

    /// The lines `chunk` completes, parsed, in order.
    mutating func lines(in chunk: UnsafeRawBufferPointer) -> [ParsedLine] {
        var lines: [ParsedLine] = []
        framer.feed(chunk) { Self.parse($0, into: &lines) }
        return lines
    }

    /// A last line that had no newline, at end of input.
    mutating func finish() -> [ParsedLine] {
        var lines: [ParsedLine] = []
        framer.finish { Self.parse($0, into: &lines) }
        return lines
    }

    private static func parse(_ event: LineFramer.Event, into lines: inout [ParsedLine]) {
        switch event {
        case .tooLong:
            lines.append(.tooLong)
        case .line(let bytes):
            guard !LineFramer.isBlank(bytes) else { return }
            do throws(JSONParseError) {
                lines.append(.message(try JSONParser.parse(bytes)))
            } catch {
                lines.append(.parseError(error))
            }
        }
    }
}
