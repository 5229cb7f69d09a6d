import JSONCore
import JSONRPC

/// `resources/read`: the JSON of one resource as `application/json` text. An unknown URI is `-32002` (MCP's
/// "resource not found"); a failure to make it is the JSON-RPC error it threw.
struct ResourcesReadMethod: MCPMethod {
    let name = "resources/read"
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        guard let uri = params["uri"]?.stringValue else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["uri"]), "resources/read needs a uri")
        }
        guard let reply = try catalog.read(uri, context) else {
            throw RPCError(RPCErrorCode(rawValue: -32002), "Resource not found", data: ["uri": .string(uri)])
        }
        return try reply.mapResult { Self.contents(uri, $0) }
    }

    private static func contents(_ uri: String, _ result: RPCResult) -> RPCResult {
        let text: [UInt8]
        switch result {
        case .value(let value): text = JSONSerializer.serialize(value)
        case .encoded(let bytes): text = bytes
        }
        return .value([
            "contents": [
                [
                    "uri": .string(uri), "mimeType": "application/json",
                    "text": .string(String(decoding: text, as: UTF8.self)),
                ]
            ]
        ])
    }
}
