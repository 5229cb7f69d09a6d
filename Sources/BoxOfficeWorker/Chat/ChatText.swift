/// What the chat renderers do to text alike: cut it to a service's limit, and write HTML's entities.
enum ChatText {
    /// `text` within `length` characters, ending in "…" when it was longer.
    static func cut(_ text: String, _ length: Int) -> String {
        text.count > length ? String(text.prefix(length - 1)) + "…" : text
    }

    /// `&`, `<` and `>` as entities, and `"` too with `quotes` (inside an attribute): Slack's mrkdwn and Telegram's
    /// HTML take text so.
    static func entities(_ text: String, quotes: Bool = false) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
