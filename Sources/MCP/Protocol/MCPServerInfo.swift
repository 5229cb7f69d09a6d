import JSONCore

/// Who the server is, as `initialize` and `server/discover` report it.
package struct MCPServerInfo: Sendable {
    package var name: String
    package var title: String
    package var version: String
    /// Guidance for the model on how to use the server.
    package var instructions: String?

    package init(name: String, title: String, version: String, instructions: String?) {
        self.name = name
        self.title = title
        self.version = version
        self.instructions = instructions
    }

    var implementation: JSONValue {
        ["name": .string(name), "title": .string(title), "version": .string(version)]
    }
}
