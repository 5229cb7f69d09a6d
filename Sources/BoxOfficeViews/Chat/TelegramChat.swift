package import JSONCore

/// Telegram `sendMessage` bodies, in `parse_mode` MarkdownV2 or HTML, each within Telegram's 4,096 characters.
///
/// MarkdownV2 (core.telegram.org/bots/api#markdownv2-style): outside entities the 18 characters
/// `_ * [ ] ( ) ~ ` > # + - = | { } . !` and the backslash itself are escaped with a backslash; inside a link's
/// URL only `)` and `\`. HTML: `&`, `<` and `>` as entities, and `"` too inside an attribute. A message is cut
/// only between items, so each one stands on its own, entities closed.
package enum TelegramChat {
    package enum Mode: String {
        case markdownV2 = "MarkdownV2"
        case html = "HTML"
    }

    /// Telegram's limit on a message's text. Counted here on the text as sent (in UTF-16 units, as Telegram
    /// counts), which is never shorter than the text Telegram shows once the entities are parsed.
    package static let limit = 4096
    /// The most of a title or a value said in one piece, counted in UTF-16 units once escaped; a longer one is cut
    /// with "…" between graphemes. A block holds at most three pieces and a link, so no block outgrows the limit on
    /// its own.
    package static let longest = 900

    package static func render(_ content: AnswerView, mode: Mode) -> [JSONObject] {
        let style = Style(mode: mode)
        var head = [style.bold(content.heading)]
        if let subheading = content.subheading { head.append(style.italic(subheading)) }
        if let source = content.source { head.append(style.italic(source)) }
        // Each block with what joins it to the one before: a movie's fields one a line, a list's items apart.
        var blocks: [(text: String, glue: String)] = []
        for (index, field) in content.fields.enumerated() {
            blocks.append((style.bold(field.name) + " " + style.text(field.value), index == 0 ? "\n\n" : "\n"))
        }
        if let image = content.imageURL, let link = style.link("Poster", to: image) { blocks.append((link, "\n")) }
        for item in content.items {
            var title = style.text(item.rank.map { "\($0). " } ?? "") + style.bold(item.title)
            if let change = item.change { title += style.text(" · " + change) }
            var lines = [title, style.text(item.facts.map { "\($0.name) \($0.value)" }.joined(separator: " · "))]
            if let image = item.imageURL, let link = style.link("Poster", to: image) { lines.append(link) }
            blocks.append((lines.joined(separator: "\n"), "\n\n"))
        }
        if content.fields.isEmpty && content.items.isEmpty { blocks.append((style.text("(nothing found)"), "\n\n")) }
        // The heading opens the first message; blocks follow while they fit, then a new message.
        var messages: [String] = []
        var current = head.joined(separator: "\n")
        for (block, glue) in blocks {
            let joined = current.isEmpty ? block : current + glue + block
            if joined.utf16.count > limit, !current.isEmpty {
                messages.append(current)
                current = block
            } else {
                current = joined
            }
        }
        messages.append(current)
        return messages.map { ["text": .string($0), "parse_mode": .string(mode.rawValue)] }
    }

    /// How each mode marks text up.
    package struct Style {
        package let mode: Mode

        /// `text` escaped, within ``TelegramChat/longest`` UTF-16 units.
        package func text(_ text: String) -> String {
            switch mode {
            case .markdownV2: ChatText.cut(text, longest, measure: .utf16) { Self.escaped($0, reserved: Self.reserved) }
            case .html: ChatText.cut(text, longest, measure: .utf16) { ChatText.entity($0) }
            }
        }

        package func bold(_ text: String) -> String {
            mode == .markdownV2 ? "*" + self.text(text) + "*" : "<b>" + self.text(text) + "</b>"
        }

        package func italic(_ text: String) -> String {
            mode == .markdownV2 ? "_" + self.text(text) + "_" : "<i>" + self.text(text) + "</i>"
        }

        /// A link to `url`, or nil when the address, escaped, is longer than ``TelegramChat/longest`` (it is left
        /// out rather than cut: a cut address leads elsewhere).
        package func link(_ label: String, to url: String) -> String? {
            let target =
                switch mode {
                case .markdownV2: url.map { Self.escaped($0, reserved: [")"]) }.joined()
                case .html: ChatText.entities(url, quotes: true)
                }
            guard target.utf16.count <= longest else { return nil }
            switch mode {
            case .markdownV2: return "[" + text(label) + "](" + target + ")"
            case .html: return "<a href=\"" + target + "\">" + text(label) + "</a>"
            }
        }

        /// MarkdownV2's reserved characters outside entities.
        package static let reserved: Set<Character> = [
            "_", "*", "[", "]", "(", ")", "~", "`", ">", "#", "+", "-", "=", "|", "{", "}", ".", "!",
        ]

        /// `character`, preceded by a backslash when it is reserved or a backslash itself.
        package static func escaped(_ character: Character, reserved: Set<Character>) -> String {
            character == "\\" || reserved.contains(character) ? "\\" + String(character) : String(character)
        }
    }
}
