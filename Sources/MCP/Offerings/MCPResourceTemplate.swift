import JSONCore

/// A family of resources named by an RFC 6570 URI template, as `resources/templates/list` shows it.
package struct MCPResourceTemplate: Sendable {
    package var uriTemplate: String
    package var name: String
    package var title: String
    package var description: String
    package var mimeType: String

    package init(uriTemplate: String, name: String, title: String, description: String, mimeType: String) {
        self.uriTemplate = uriTemplate
        self.name = name
        self.title = title
        self.description = description
        self.mimeType = mimeType
    }

    var listing: JSONValue {
        [
            "uriTemplate": .string(uriTemplate), "name": .string(name), "title": .string(title),
            "description": .string(description), "mimeType": .string(mimeType),
        ]
    }
}
