import JSONCore

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
