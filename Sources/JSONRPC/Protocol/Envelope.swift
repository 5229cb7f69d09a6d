package import JSONCore

/// One element of a message: a request (or notification), or something answered with an error.
package enum Envelope: Sendable, Hashable {
    case request(Request)
    /// Not a well-formed request: answered with `error` and `id` (the request's id when it could be read, else null).
    case invalid(id: JSONValue, error: RPCError)
}
