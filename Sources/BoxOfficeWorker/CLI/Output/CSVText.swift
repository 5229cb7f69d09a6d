import Foundation

/// RFC 4180 CSV: fields quoted when they hold a comma, a quote or a line break, quotes doubled, CRLF line ends.
package enum CSVText {
    /// The byte order mark Excel needs to read UTF-8 (and so Korean titles) correctly.
    package static let excelBOM = "\u{FEFF}"

    package static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
