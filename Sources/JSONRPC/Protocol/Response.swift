package import JSONCore
package import JSONSchema

/// One response object: `{"jsonrpc":"2.0","id":…,"result":…}` or `{…,"error":…}`.
///
/// It writes its own fixed envelope as bytes and only its id and body through the serializer: the envelope is the
/// same for every answer, and building it as a Jansson object per line was a measurable part of a `ping`.
struct Response: Sendable {
    enum Body: Sendable {
        case result(RPCResult)
        case error(RPCError)
    }

    let id: JSONValue
    let body: Body

    static func result(id: JSONValue, _ result: JSONValue) -> Response {
        Response(id: id, body: .result(.value(result)))
    }

    static func error(id: JSONValue, _ error: RPCError) -> Response {
        Response(id: id, body: .error(error))
    }

    func append(to bytes: inout [UInt8]) {
        JSONSerializer.appendLiteral(#"{"jsonrpc":"2.0","id":"#, to: &bytes)
        JSONSerializer.append(id, to: &bytes)
        switch body {
        case .result(let result):
            JSONSerializer.appendLiteral(#","result":"#, to: &bytes)
            result.append(to: &bytes)
        case .error(let error):
            JSONSerializer.appendLiteral(#","error":"#, to: &bytes)
            JSONSerializer.append(error.json, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}

/// What one line is answered with: one response, or the array of a batch's responses.
enum Answer: Sendable {
    case single(Response)
    case batch([Response])

    /// Appends the answer and its newline.
    func append(to bytes: inout [UInt8]) {
        switch self {
        case .single(let response):
            response.append(to: &bytes)
        case .batch(let responses):
            bytes.append(UInt8(ascii: "["))
            for (index, response) in responses.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                response.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    var line: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }
}

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
