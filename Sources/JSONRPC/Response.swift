import JSONCore
import JSONSchema

/// Builders for the response objects the server writes.
enum Response {
    static func result(id: JSONValue, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    static func error(id: JSONValue, _ error: RPCError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": error.json]
    }
}

extension RPCError {
    /// The most errors listed in one `-32602`.
    static let maximumListedErrors = 20

    /// `-32602` for params that fail their schema: the message summarises the first error, `data.errors` lists them.
    public static func invalidParams(_ errors: [ValidationError]) -> RPCError {
        let listed = errors.prefix(maximumListedErrors).map { error -> JSONValue in
            [
                "instanceLocation": .string(error.instanceLocation.description),
                "keywordLocation": .string(error.keywordLocation.description),
                "message": .string(error.message),
            ]
        }
        let first = errors.first.map { $0.description } ?? "params do not match the method's schema"
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        return RPCError(
            .invalidParams, "Invalid params: \(first)\(more)",
            data: ["reason": "invalid_params", "errors": .array(Array(listed))]
        )
    }

    /// `-32602` with one error of the caller's own (a rule no schema can express).
    public static func invalidParams(at location: JSONPointer, keyword: JSONPointer = .root, _ message: String) -> RPCError {
        invalidParams([ValidationError(instanceLocation: location, keywordLocation: keyword, message: message)])
    }
}
