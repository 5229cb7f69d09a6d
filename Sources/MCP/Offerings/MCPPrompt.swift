import JSONCore
package import JSONRPC

/// A prompt template: how `prompts/list` shows it, and what makes its messages.
package struct MCPPrompt: Sendable {
    /// One argument of a prompt.
    package struct Argument: Sendable {
        package var name: String
        package var description: String
        package var required: Bool

        package init(name: String, description: String, required: Bool) {
            self.name = name
            self.description = description
            self.required = required
        }
    }

    package var name: String
    package var title: String
    package var description: String
    package var arguments: [Argument]
    /// Makes the `GetPromptResult` (`description`, `messages`) for string arguments.
    package var get: @Sendable (_ arguments: [String: String], _ context: RequestContext) throws -> RPCReply

    package init(
        name: String, title: String, description: String, arguments: [Argument],
        get: @escaping @Sendable ([String: String], RequestContext) throws -> RPCReply
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.arguments = arguments
        self.get = get
    }

    var listing: JSONValue {
        [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "arguments": .array(
                arguments.map {
                    ["name": .string($0.name), "description": .string($0.description), "required": .bool($0.required)]
                }),
        ]
    }
}
