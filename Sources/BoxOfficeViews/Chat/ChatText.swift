/// What the chat renderers do to text alike: cut it to a service's limit by the service's own measure, escape it,
/// and write HTML's entities.
package enum ChatText {
    /// How a service counts the length of a text.
    package enum Measure {
        /// Unicode scalars: what Slack and Discord call characters.
        case scalars
        /// UTF-16 code units: what Telegram counts (an emoji outside the BMP is two).
        case utf16
    }

    package static func length(_ text: some StringProtocol, _ measure: Measure) -> Int {
        switch measure {
        case .scalars: text.unicodeScalars.count
        case .utf16: text.utf16.count
        }
    }

    /// `text`, each character written as `escaping` writes it, within `limit` by `measure`; when it is longer it
    /// is cut between characters (never inside a grapheme: a family emoji is whole or gone, an escape or an entity
    /// is never split) and ends in "…".
    package static func cut(
        _ text: String, _ limit: Int, measure: Measure = .scalars, escaping: (Character) -> String = { String($0) }
    ) -> String {
        var out = ""
        var used = 0
        for character in text {
            let piece = escaping(character)
            out += piece
            used += length(piece, measure)
        }
        guard used > limit else { return out }
        guard limit > 0 else { return "" }
        out = ""
        used = 0
        for character in text {
            let piece = escaping(character)
            let length = length(piece, measure)
            // "…" is one unit by either measure.
            if used + length > limit - 1 { break }
            out += piece
            used += length
        }
        return out + "…"
    }

    /// `&`, `<` and `>` as entities, and `"` too with `quotes` (inside an attribute): Slack's mrkdwn and Telegram's
    /// HTML take text so.
    package static func entities(_ text: String, quotes: Bool = false) -> String {
        var out = ""
        for character in text { out += entity(character, quotes: quotes) }
        return out
    }

    /// One character as ``entities(_:quotes:)`` writes it.
    package static func entity(_ character: Character, quotes: Bool = false) -> String {
        switch character {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"" where quotes: "&quot;"
        default: String(character)
        }
    }
}
