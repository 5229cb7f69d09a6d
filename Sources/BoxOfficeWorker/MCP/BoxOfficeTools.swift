import BoxOfficeCore
import FoundationEssentials
import Glibc
import JSONCore
import JSONRPC
import JSONSchema
import MCP

/// The worker's methods as MCP tools: schemas made from the method's own (``ToolSchemas``, so nothing is copied), the
/// method itself behind each tool (called through its one entrance), so a cached answer is answered on the spot
/// here too.
enum BoxOfficeTools {
    /// The largest poster sent inline as an image block; a larger one is a `resource_link` to the file.
    static let inlineImageBytes = 1 << 20

    static func make(_ registry: MethodRegistry) -> [MCPTool] {
        ToolSchemas.describedOnce(tools(registry))
    }

    private static func tools(_ registry: MethodRegistry) -> [MCPTool] {
        ToolSpec.all.compactMap { spec in
            guard let method = registry.method(named: spec.method) else { return nil }
            return MCPTool(
                name: spec.tool, title: spec.title, description: spec.description,
                inputSchema: ToolSchemas.input(method.paramsSchema.document, card: spec.tool == ToolSchemas.cardTool),
                outputSchema: ToolSchemas.output(method.resultSchema, card: spec.tool == ToolSchemas.cardTool),
                annotations: annotations(spec), method: method,
                extraContent: extraContent(spec.method), keepsText: spec.method != "movie.poster")
        }
    }

    /// The hints a host shows: the title (2025-03-26 hosts know no other), read-only and idempotent;
    /// `openWorldHint` only where it is not the specification's default (true).
    static func annotations(_ spec: ToolSpec) -> JSONObject {
        var hints: JSONObject = ["title": .string(spec.title), "readOnlyHint": true, "idempotentHint": true]
        if !spec.openWorld { hints["openWorldHint"] = false }
        return hints
    }

    /// What a tool's result gives a host to show: a downloaded poster, a drawn card.
    static func extraContent(_ method: String) -> (@Sendable (JSONValue) -> (result: JSONValue, blocks: [JSONValue]))? {
        switch method {
        case "movie.poster": { ($0, posterContent($0)) }
        case "boxoffice.daily": cardContent
        default: nil
        }
    }

    /// A downloaded poster for a host to show: the image itself up to 1 MB, else a link to the file.
    static func posterContent(_ result: JSONValue) -> [JSONValue] {
        guard let file = result["file"]?.objectValue, let path = file["path"]?.stringValue,
            let mimeType = file["mimeType"]?.stringValue
        else { return [] }
        let bytes = file["bytes"]?.integerValue ?? Int64.max
        if bytes <= inlineImageBytes, let data = FileManager.default.contents(atPath: path) {
            return [["type": "image", "data": .string(data.base64EncodedString()), "mimeType": .string(mimeType)]]
        }
        return [
            [
                "type": "resource_link", "uri": .string(URL(fileURLWithPath: path).absoluteString),
                "name": .string(String(path.split(separator: "/").last ?? "")), "mimeType": .string(mimeType),
            ]
        ]
    }

    /// A box office drawn as a card (the `card` argument): the picture as an `image` block, and the result without
    /// its base64 (`card` keeps its size).
    static func cardContent(_ result: JSONValue) -> (result: JSONValue, blocks: [JSONValue]) {
        guard case .object(var object) = result, case .object(var card)? = object["card"],
            let data = card["data"]?.stringValue
        else { return (result, []) }
        card["data"] = nil
        object["card"] = .object(card)
        return (.object(object), [["type": "image", "data": .string(data), "mimeType": "image/png"]])
    }
}
