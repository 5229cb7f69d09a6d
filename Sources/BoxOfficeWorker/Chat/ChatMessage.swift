package import JSONCore

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
