package import JSONCore

/// The chat formats a box office, a movie or a search is written in, ready to post. One renderer per format, over
/// ``AnswerView``, behind the CLI's `--format` and the methods' `chat` param alike.
package enum ChatFormat: String, Sendable, CaseIterable {
    /// GitHub-flavoured Markdown: a table for a list, a heading and a list for a movie.
    case markdown
    /// Slack Block Kit messages, each the body of `chat.postMessage` or of an incoming webhook.
    case slack
    /// Discord execute-webhook bodies: embeds with title, fields, a thumbnail poster and a colour.
    case discord
    /// Telegram `sendMessage` bodies in `parse_mode` MarkdownV2 (add the `chat_id`).
    case telegram
    /// Telegram `sendMessage` bodies in `parse_mode` HTML.
    case telegramHTML = "telegram-html"

    /// The messages that say `content` in this format: Markdown is one text; the others are request bodies, split
    /// into as many as the service's limits need.
    package func messages(_ content: AnswerView) -> [ChatMessage] {
        switch self {
        case .markdown: [.text(MarkdownChat.render(content))]
        case .slack: SlackChat.render(content).map(ChatMessage.body)
        case .discord: DiscordChat.render(content).map(ChatMessage.body)
        case .telegram: TelegramChat.render(content, mode: .markdownV2).map(ChatMessage.body)
        case .telegramHTML: TelegramChat.render(content, mode: .html).map(ChatMessage.body)
        }
    }
}

/// One message of a chat format: a text (Markdown) or a request body to post (Slack, Discord, Telegram).
package enum ChatMessage: Sendable, Hashable {
    case text(String)
    case body(JSONObject)

    /// The message as JSON: a string or an object.
    package var json: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .body(let body): .object(body)
        }
    }
}
