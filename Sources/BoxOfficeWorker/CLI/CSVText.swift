import BoxOfficeViews

/// RFC 4180 CSV for people and spreadsheets: fields quoted when they hold a comma, a quote or a line break, quotes
/// doubled, CRLF line ends; and every cell made inert, since its text may come from an upstream.
///
/// - Its acting characters get ``TerminalText``'s stand-ins (a line break in a title is `␊`: one record a row, and
///   nothing for a terminal to act on when the file is shown with `cat`).
/// - A cell a spreadsheet would take as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a CR, as OWASP's
///   "CSV Injection" lists them) begins with `'` instead, so `=HYPERLINK(…)` shows as text in Excel, LibreOffice and
///   Google Sheets. A plain number (`-3`, `+1.5`: a rank change) is left alone: no spreadsheet runs it, and a
///   quote would turn a figure into text; nor is a bare `-` (an unchanged rank).
package enum CSVText {
    /// The byte order mark Excel needs to read UTF-8 (and so Korean titles) correctly.
    package static let excelBOM = "\u{FEFF}"

    package static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    package static func field(_ text: String) -> String {
        let cell = inert(text)
        guard cell.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") }) else { return cell }
        var quoted = "\""
        for character in cell {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }

    /// `text` as a cell that neither acts on a terminal nor runs in a spreadsheet.
    package static func inert(_ text: String) -> String {
        // A CR or a line feed is a stand-in after cleaning; the formula test looks at the text as it came.
        guard let first = text.utf8.first else { return "" }
        let cleaned = TerminalText.clean(text)
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D:
            return "'" + cleaned
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            // A bare sign (the "-" of an unchanged rank) runs nothing either.
            return text.utf8.count == 1 || isPlainNumber(text.utf8) ? cleaned : "'" + cleaned
        default:
            return cleaned
        }
    }

    /// A sign, digits, and at most one point followed by digits.
    package static func isPlainNumber(_ utf8: String.UTF8View) -> Bool {
        var digits = 0
        var point = false
        var digitsAfterPoint = 0
        for (index, byte) in utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "+") where index == 0, UInt8(ascii: "-") where index == 0: continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if point { digitsAfterPoint += 1 }
            case UInt8(ascii: ".") where !point && digits > 0: point = true
            default: return false
            }
        }
        return digits > 0 && (!point || digitsAfterPoint > 0)
    }
}
