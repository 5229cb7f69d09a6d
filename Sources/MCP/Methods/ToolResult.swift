import JSONCore
import JSONRPC

/// `CallToolResult`s: a tool's result as structured content with the same JSON in a text block (the
/// specification's compatibility rule for clients that read only text), or its error with `isError: true`.
enum ToolResult {
    /// The result of a tool that worked. A kept answer's text goes in as it is, without parsing it again.
    static func success(_ result: RPCResult, extra: [JSONValue]) -> RPCResult {
        switch result {
        case .value(let value): .encoded(successText(JSONSerializer.serialize(value), extra: extra))
        case .encoded(let text): .encoded(successText(text, extra: extra))
        }
    }

    /// The text of a success result around the JSON text of the tool's result.
    static func successText(_ json: [UInt8], extra: [JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count * 2 + 128)
        JSONSerializer.appendLiteral(#"{"content":[{"type":"text","text":"#, to: &bytes)
        JSONSerializer.appendQuoted(utf8: json, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        for block in extra {
            bytes.append(UInt8(ascii: ","))
            JSONSerializer.append(block, to: &bytes)
        }
        JSONSerializer.appendLiteral(#"],"structuredContent":"#, to: &bytes)
        bytes.append(contentsOf: json)
        JSONSerializer.appendLiteral(#","isError":false}"#, to: &bytes)
        return bytes
    }

    /// The result of a tool that failed: a text a model can act on, and the error object (code, message, data
    /// with its `reason`) as structured content.
    static func failure(_ error: RPCError, tool: String) -> RPCResult {
        let reason = error.data?["reason"]?.stringValue
        var text = "\(tool) failed: \(error.message)"
        if error.code == .invalidParams {
            let detail =
                error.message.hasPrefix("Invalid params: ") ? String(error.message.dropFirst(16)) : error.message
            text = "Invalid arguments for \(tool): \(detail). Correct the arguments and call \(tool) again."
        } else if let reason {
            text += " (reason: \(reason))"
        }
        return .value([
            "content": [["type": "text", "text": .string(text)]],
            "structuredContent": ["error": error.json],
            "isError": true,
        ])
    }
}
