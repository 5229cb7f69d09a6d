package import JSONCore
package import JSONSchema

extension RPCError {
    /// The most errors listed in one `-32602`.
    static let maximumListedErrors = 20

    /// `-32602` for params that fail their schema: the message summarises the first error, `data.errors` lists them.
    package static func invalidParams(_ errors: [ValidationError]) -> RPCError {
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
    package static func invalidParams(at location: JSONPointer, keyword: JSONPointer = .root, _ message: String)
        -> RPCError
    {
        invalidParams([ValidationError(instanceLocation: location, keywordLocation: keyword, message: message)])
    }
}
