package import JSONCore

/// A request object that passed the JSON-RPC 2.0 shape rules.
package struct Request: Sendable, Hashable {
    /// `nil` for a notification; otherwise a string, an integer, a real or `null`.
    package var id: JSONValue?
    package var method: String
    /// The params object, `_meta` included; empty when absent.
    package var params: JSONObject
    /// Set when params were an array (by-position): the method exists but takes named params only (`-32602`).
    package var paramsByPosition: Bool

    package init(id: JSONValue?, method: String, params: JSONObject, paramsByPosition: Bool) {
        self.id = id
        self.method = method
        self.params = params
        self.paramsByPosition = paramsByPosition
    }

    package var isNotification: Bool { id == nil }
}
