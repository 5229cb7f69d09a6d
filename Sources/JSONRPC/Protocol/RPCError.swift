package import JSONCore

/// An error answered on the wire: `{"code", "message", "data"?}`.
///
/// Handlers throw it to answer with a specific error; anything else they throw becomes `-32603` without details.
package struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: RPCErrorCode
    package var message: String
    package var data: JSONValue?

    package init(_ code: RPCErrorCode, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The error object as it goes on the wire.
    package var json: JSONValue {
        var object: JSONObject = ["code": .integer(code.rawValue), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    package var description: String { "\(code.rawValue) \(message)" }
}

extension RPCError {
    static func parse(_ error: JSONParseError) -> RPCError {
        let reason: String
        switch error.code {
        case .numericOverflow:
            reason = "a number is too large to represent (integers are limited to 64 bits, reals to double precision)"
        case .invalidUTF8:
            reason = "the line is not valid UTF-8"
        case .stackOverflow:
            reason = "nesting is deeper than \(JSONParser.maximumDepth) levels"
        case .duplicateKey:
            reason = "an object has a duplicate key"
        default:
            reason = "the line is not valid JSON"
        }
        return RPCError(
            .parseError,
            "Parse error: \(reason)",
            data: [
                "reason": .string(error.text), "line": .int(error.line), "column": .int(error.column),
                "position": .int(error.position), "janssonCode": .int(error.code.rawValue),
            ]
        )
    }

    static func invalidRequest(_ why: String) -> RPCError {
        RPCError(.invalidRequest, "Invalid Request: \(why)")
    }

    static func requestTooLarge(limit: Int) -> RPCError {
        RPCError(.invalidRequest, "request too large: the line exceeds \(limit) bytes", data: ["limit": .int(limit)])
    }

    static func batchTooLarge(count: Int, limit: Int) -> RPCError {
        RPCError(
            .invalidRequest, "batch too large: \(count) messages, at most \(limit) allowed",
            data: ["limit": .int(limit), "count": .int(count)]
        )
    }

    static let duplicateID = RPCError(.invalidRequest, "duplicate id: a request with this id is still in flight")

    package static func methodNotFound(_ name: String) -> RPCError {
        RPCError(.methodNotFound, "Method not found: \(name)")
    }

    static let internalError = RPCError(
        .internalError, "Internal error: the request failed unexpectedly; the worker is still serving")

    static func cancelled(byShutdown: Bool) -> RPCError {
        RPCError(.requestCancelled, byShutdown ? "cancelled: the worker is shutting down" : "cancelled")
    }
}

/// A JSON-RPC error code. The JSON-RPC 2.0 codes are named here; an application names its own in an extension.
package struct RPCErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int64
    package init(rawValue: Int64) { self.rawValue = rawValue }

    /// The line is not JSON (or holds a number Jansson cannot represent, or invalid UTF-8).
    package static let parseError = RPCErrorCode(rawValue: -32700)
    /// Valid JSON that is not a well-formed request; also over-long lines, over-large batches, duplicate ids.
    package static let invalidRequest = RPCErrorCode(rawValue: -32600)
    package static let methodNotFound = RPCErrorCode(rawValue: -32601)
    package static let invalidParams = RPCErrorCode(rawValue: -32602)
    /// A handler failed unexpectedly; the message never carries internals.
    package static let internalError = RPCErrorCode(rawValue: -32603)
    /// Cancelled by `$/cancelRequest` or by shutdown (the LSP code, which MCP hosts also know).
    package static let requestCancelled = RPCErrorCode(rawValue: -32800)

    package var description: String { String(rawValue) }
}
