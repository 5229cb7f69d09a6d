/// The lines of a detail screen (a movie's, a person's, a company's): a bold name, its English form, a rule, then
/// labelled fields wrapped under their label, and lists under a heading.
package struct FieldLines {
    package let width: Int
    package let style: TerminalStyle
    private(set) var lines: [String] = []
    /// The lines of the title, its English form and the rule.
    private var headingLines = 0

    package init(title: String, english: String?, width: Int, style: TerminalStyle) {
        self.width = max(40, width)
        self.style = style
        lines = [style.bold(TerminalText.clean(title, for: .cell))]
        if let english, !english.isEmpty { lines.append(TerminalText.clean(english, for: .cell)) }
        lines.append(style.dim(String(repeating: "─", count: min(self.width, 60))))
        headingLines = lines.count
    }

    /// A labelled field; nothing when the value is empty.
    package mutating func field(_ name: String, _ value: String?) {
        guard let raw = value, !raw.isEmpty else { return }
        let value = TerminalText.clean(raw, for: .cell)
        let label = DisplayWidth.fit(name, to: 10)
        var first = true
        for line in MovieScreen.wrap(value, width: width - 11) {
            lines.append((first ? style.dim(label) : String(repeating: " ", count: 10)) + " " + line)
            first = false
        }
    }

    /// A heading and one line per item, indented under it: the item's text, then its note dimmed after a " · ".
    /// A line too wide for the screen is cut, and then left unstyled (a cut must not fall inside a colour code).
    package mutating func list(_ heading: String, _ items: [(text: String, note: String?)]) {
        guard !items.isEmpty else { return }
        lines.append(style.dim(heading))
        for item in items {
            let text = TerminalText.clean(item.text, for: .cell)
            let note = item.note.map { " · " + TerminalText.clean($0, for: .cell) } ?? ""
            let room = width - 2
            if DisplayWidth.of(text + note) > room {
                lines.append("  " + DisplayWidth.truncate(text + note, to: room))
            } else {
                lines.append("  " + text + (note.isEmpty ? "" : style.dim(note)))
            }
        }
    }

    package var text: String { lines.joined(separator: "\n") + "\n" }

    /// The lines below the heading and its rule: the fields and lists alone.
    package var fieldLines: [String] { Array(lines.dropFirst(headingLines)) }
}
