package import JSONCore

/// The JSON-RPC 2.0 shape rules, as a pure function from a parsed line to an ``IncomingMessage``.
package enum MessageClassifier {
    /// `batches` false: an array line is refused whole; `nullID` false: `"id": null` is an invalid request.
    package static func classify(
        _ value: JSONValue, maxBatch: Int, batches: Bool = true, nullID: Bool = true
    ) -> IncomingMessage {
        switch value {
        case .array(let elements):
            guard batches else {
                return .rejected(.invalidRequest("batches are not accepted in this protocol version"))
            }
            if elements.isEmpty { return .rejected(.invalidRequest("an empty batch")) }
            if elements.count > maxBatch { return .rejected(.batchTooLarge(count: elements.count, limit: maxBatch)) }
            return .batch(elements.map { envelope($0, nullID: nullID) })
        default:
            return .single(envelope(value, nullID: nullID))
        }
    }

    /// Classifies one message object (a whole line, or one element of a batch).
    package static func envelope(_ value: JSONValue, nullID: Bool = true) -> Envelope {
        guard case .object(let object) = value else {
            return .invalid(id: .null, error: .invalidRequest("expected a request object, found \(value.typeName)"))
        }
        // The id is echoed whenever it is a valid id, even if the rest of the object is not.
        let rawID = object["id"]
        let id: JSONValue?
        switch rawID {
        case nil: id = nil
        case .null? where !nullID:
            return .invalid(id: .null, error: .invalidRequest("\"id\" must be a string or an integer, not null"))
        case .string?, .integer?, .real?, .null?: id = rawID
        case let other?:
            return .invalid(
                id: .null, error: .invalidRequest("\"id\" must be a string, a number or null, not \(other.typeName)"))
        }
        func invalid(_ why: String) -> Envelope {
            .invalid(id: id ?? .null, error: .invalidRequest(why))
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return invalid("\"jsonrpc\" must be the string \"2.0\"")
        }
        guard case .string(let method)? = object["method"] else {
            return invalid(object["method"] == nil ? "\"method\" is missing" : "\"method\" must be a string")
        }
        var params = JSONObject()
        var byPosition = false
        switch object["params"] {
        case nil: break
        case .object(let named)?: params = named
        case .array?: byPosition = true
        case let other?: return invalid("\"params\" must be an object or an array, not \(other.typeName)")
        }
        return .request(Request(id: id, method: method, params: params, paramsByPosition: byPosition))
    }
}

/// What one input line is.
package enum IncomingMessage: Sendable, Hashable {
    case single(Envelope)
    case batch([Envelope])
    /// A line that is answered by a single error object and nothing else (parse error, `[]`, batch too large).
    case rejected(RPCError)
}

/// One element of a message: a request (or notification), or something answered with an error.
package enum Envelope: Sendable, Hashable {
    case request(Request)
    /// Not a well-formed request: answered with `error` and `id` (the request's id when it could be read, else null).
    case invalid(id: JSONValue, error: RPCError)
}
