import JSONCore

/// A concrete resource, as `resources/list` shows it.
package struct MCPResource: Sendable {
    package var uri: String
    package var name: String
    package var title: String
    package var mimeType: String

    package init(uri: String, name: String, title: String, mimeType: String) {
        self.uri = uri
        self.name = name
        self.title = title
        self.mimeType = mimeType
    }

    var listing: JSONValue {
        ["uri": .string(uri), "name": .string(name), "title": .string(title), "mimeType": .string(mimeType)]
    }
}
