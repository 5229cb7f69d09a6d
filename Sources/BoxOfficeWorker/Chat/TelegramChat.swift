import JSONCore

/// Telegram `sendMessage` bodies, in `parse_mode` MarkdownV2 or HTML, each within Telegram's 4,096 characters.
///
/// MarkdownV2 (core.telegram.org/bots/api#markdownv2-style): outside entities the 18 characters
/// `_ * [ ] ( ) ~ ` > # + - = | { } . !` and the backslash itself are escaped with a backslash; inside a link's
/// URL only `)` and `\`. HTML: `&`, `<` and `>` as entities, and `"` too inside an attribute. A message is cut
/// only between items, so each one stands on its own, entities closed.
enum TelegramChat {
    enum Mode: String {
        case markdownV2 = "MarkdownV2"
        case html = "HTML"
    }

    /// Telegram's limit on a message's text. Counted here on the text as sent (in UTF-16 units, as Telegram
    /// counts), which is never shorter than the text Telegram shows once the entities are parsed.
    static let limit = 4096
    /// The most of a title or a value said in one piece; a longer one is cut with "…" (no message then outgrows
    /// the limit on its own).
    static let longest = 1000

    static func render(_ content: ChatContent, mode: Mode) -> [JSONObject] {
        let style = Style(mode: mode)
        var head = [style.bold(content.heading)]
        if let subheading = content.subheading { head.append(style.italic(subheading)) }
        if let source = content.source { head.append(style.italic(source)) }
        // Each block with what joins it to the one before: a movie's fields one a line, a list's items apart.
        var blocks: [(text: String, glue: String)] = []
        for (index, field) in content.fields.enumerated() {
            blocks.append((style.bold(field.name) + " " + style.text(field.value), index == 0 ? "\n\n" : "\n"))
        }
        if let image = content.imageURL { blocks.append((style.link("Poster", to: image), "\n")) }
        for item in content.items {
            var title = style.text(item.rank.map { "\($0). " } ?? "") + style.bold(item.title)
            if let change = item.change { title += style.text(" · " + change) }
            var lines = [title, style.text(item.facts.map { "\($0.name) \($0.value)" }.joined(separator: " · "))]
            if let image = item.imageURL { lines.append(style.link("Poster", to: image)) }
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
    struct Style {
        let mode: Mode

        func text(_ text: String) -> String {
            let cut = Self.cut(text)
            switch mode {
            case .markdownV2: return Self.escaped(cut, reserved: Self.reserved)
            case .html: return Self.html(cut, quotes: false)
            }
        }

        func bold(_ text: String) -> String {
            mode == .markdownV2 ? "*" + self.text(text) + "*" : "<b>" + self.text(text) + "</b>"
        }

        func italic(_ text: String) -> String {
            mode == .markdownV2 ? "_" + self.text(text) + "_" : "<i>" + self.text(text) + "</i>"
        }

        func link(_ label: String, to url: String) -> String {
            switch mode {
            case .markdownV2: return "[" + text(label) + "](" + Self.escaped(url, reserved: [")"]) + ")"
            case .html: return "<a href=\"" + Self.html(url, quotes: true) + "\">" + text(label) + "</a>"
            }
        }

        /// MarkdownV2's reserved characters outside entities.
        static let reserved: Set<Character> = [
            "_", "*", "[", "]", "(", ")", "~", "`", ">", "#", "+", "-", "=", "|", "{", "}", ".", "!",
        ]

        /// `text` with each reserved character, and every backslash, preceded by a backslash.
        static func escaped(_ text: String, reserved: Set<Character>) -> String {
            var out = ""
            for character in text {
                if character == "\\" || reserved.contains(character) { out.append("\\") }
                out.append(character)
            }
            return out
        }

        static func html(_ text: String, quotes: Bool) -> String {
            ChatText.entities(text, quotes: quotes)
        }

        static func cut(_ text: String) -> String {
            ChatText.cut(text, longest)
        }
    }
}
