/// Text from an upstream made harmless for a terminal, a log line or a spreadsheet cell: every character that
/// could act rather than show is replaced by a visible stand-in of one column.
///
/// Titles, names and poster addresses come from KOBIS and from whatever web pages Kakao indexed. Written raw, an
/// `ESC ] 52` writes the clipboard, `ESC [ 2 J` clears the screen, `ESC ] 8` plants a hyperlink, a C1 `CSI`
/// (U+009B) does what `ESC [` does on terminals that take 8-bit controls, a newline fakes a row, and a bidi
/// override shows a line in another order than its bytes. So:
/// - the C0 controls become the Control Pictures block's picture of them (`ESC` → `␛`, a newline → `␊`, NUL →
///   `␀`), DEL becomes `␡`; a tab stays, unless the medium forbids it (``Medium``);
/// - the C1 controls (U+0080…U+009F), the bidi embeddings, overrides and isolates (U+202A…U+202E,
///   U+2066…U+2069) and the line and paragraph separators (U+2028, U+2029) become `�` (U+FFFD).
///
/// Every writer of human output goes through it: the screens (their cells through ``DisplayWidth``, which
/// counts the stand-ins, and the whole screen through ``screen(_:)``), the CLI's stderr lines, the CSV cells.
/// JSON and NDJSON stay exact: their serialiser escapes every control already.
package enum TerminalText {
    /// Where the text goes, which decides what a tab may do.
    package enum Medium: Sendable {
        /// A line of a log or of stderr, a CSV cell: a tab stays.
        case line
        /// A cell of a screen: a tab would move the cursor to a tab stop and break the columns, so it is `␉`.
        case cell
    }

    /// `text` with every acting character replaced by its stand-in.
    package static func clean(_ text: some StringProtocol, for medium: Medium = .line) -> String {
        let string = String(text)
        guard needsCleaning(string.utf8, keepingTab: medium == .line) else { return string }
        var out = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if scalar == "\t", medium == .line {
                out.append(scalar)
            } else if let standIn = standIn(for: scalar) {
                out.append(standIn)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The stand-in for `scalar`, or nil when it shows as itself.
    package static func standIn(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value)
        case 0x7F: "\u{2421}"
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: "\u{FFFD}"
        default: nil
        }
    }

    /// A composed screen as it may reach the terminal: its line breaks and the colours ``TerminalStyle`` paints
    /// (exactly those sequences) stay; every other acting character gets its stand-in. The cells were cleaned as
    /// they were laid out (a title's own newline is already `␊` there); this is the guard for what a screen wrote
    /// without a cell.
    package static func screen(_ text: String) -> String {
        guard needsCleaning(text.utf8, keepingTab: true, keepingNewline: true, keepingEscape: true) else {
            return text
        }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let length = TerminalStyle.sequenceLength(scalars[index...]) {
                out.append(contentsOf: scalars[index..<index + length])
                index += length
                continue
            }
            if scalar == "\n" || scalar == "\t" {
                out.append(scalar)
            } else {
                out.append(standIn(for: scalar) ?? scalar)
            }
            index += 1
        }
        return String(out)
    }

    /// Whether any byte of `utf8` starts an acting character: the quick answer for the usual title, which has none.
    /// C1 controls are `C2 80…C2 9F` in UTF-8; the bidi controls and separators `E2 80 A8…AE` and `E2 81 A6…A9`.
    package static func needsCleaning(
        _ utf8: String.UTF8View, keepingTab: Bool, keepingNewline: Bool = false, keepingEscape: Bool = false
    ) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case 0x09 where keepingTab, 0x0A where keepingNewline, 0x1B where keepingEscape:
                break
            case 0x00...0x1F, 0x7F:
                return true
            case 0x80...0x9F where previous == 0xC2:
                return true
            case 0xA8...0xAE where previous == 0x80 && beforePrevious == 0xE2,
                0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2:
                return true
            default:
                break
            }
            beforePrevious = previous
            previous = byte
        }
        return keepingEscape && utf8.contains(0x1B)
    }
}
