/// GitHub-flavoured Markdown: a list as a table (rank, change, title, then the facts as columns), a movie as a
/// heading and a bulleted list. Table cells escape `|` and text escapes what would start markup.
package enum MarkdownChat {
    package static func render(_ content: AnswerView) -> String {
        var lines = ["### " + escape(content.heading)]
        if let subheading = content.subheading { lines.append("*" + escape(subheading) + "*") }
        lines.append("")
        if !content.fields.isEmpty {
            if let image = content.imageURL { lines += ["![poster](\(destination(image)))", ""] }
            lines += content.fields.map { "- **\(escape($0.name))**: \(escape($0.value))" }
        } else if !content.items.isEmpty {
            lines += table(content.items)
        } else {
            lines.append("(nothing found)")
        }
        if let source = content.source { lines += ["", "<sub>" + escape(source) + "</sub>"] }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ items: [AnswerView.Item]) -> [String] {
        let ranked = items.contains { $0.rank != nil }
        let names = items.first?.facts.map(\.name) ?? []
        var header = ranked ? ["Rank", "Change", "Title"] : ["Title"]
        header += names
        // Numbers align right, words left.
        var alignment = ranked ? ["---:", ":---", ":---"] : [":---"]
        alignment += names.map { ["Audience", "Total", "Share", "Year"].contains($0) ? "---:" : ":---" }
        var rows = ["| " + header.joined(separator: " | ") + " |", "| " + alignment.joined(separator: " | ") + " |"]
        for item in items {
            var cells =
                ranked ? [item.rank.map(String.init) ?? "", item.change ?? "", cell(item.title)] : [cell(item.title)]
            cells += names.map { name in cell(item.facts.first { $0.name == name }?.value ?? "") }
            rows.append("| " + cells.joined(separator: " | ") + " |")
        }
        return rows
    }

    /// A link's destination that stays one: the characters that would end it or the link (`(`, `)`, `<`, `>`, a
    /// space, a backslash) percent-encoded. (``AnswerView`` keeps only http and https addresses.)
    package static func destination(_ url: String) -> String {
        var out = ""
        for character in url {
            switch character {
            case "(": out += "%28"
            case ")": out += "%29"
            case "<": out += "%3C"
            case ">": out += "%3E"
            case " ": out += "%20"
            case "\\": out += "%5C"
            default: out.append(character)
            }
        }
        return out
    }

    /// A table cell: escaped as text, its pipes too.
    private static func cell(_ text: String) -> String {
        escape(text, pipes: true)
    }

    /// Text that stays text: the characters that open Markdown emphasis, code, links, HTML or headings escaped
    /// (and `|`, which ends a table cell, with `pipes`).
    package static func escape(_ text: String, pipes: Bool = false) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>#".contains(character) || (pipes && character == "|") { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
