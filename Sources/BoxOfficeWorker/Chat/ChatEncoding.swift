import JSONCore

/// The `chat` member a result gains when its params ask for a chat format: the format and its messages, made by the
/// renderer the CLI's `--format` uses.
enum ChatEncoding {
    /// `result` (an object) with `chat: {format, messages}` added.
    static func adding(_ format: ChatFormat, _ content: ChatContent, to result: JSONValue) -> JSONValue {
        guard case .object(var object) = result else { return result }
        object["chat"] = [
            "format": .string(format.rawValue), "messages": .array(format.messages(content).map(\.json)),
        ]
        return .object(object)
    }
}
