import BoxOfficeCore
import Foundation
import JSONCore
import JSONRPC
import JSONSchema
import MCP

/// The worker's methods as MCP tools: schemas from `Schemas/` (the method's own, so nothing is copied), the
/// method's one answer path behind each tool, so a cached answer is answered on the spot here too.
enum BoxOfficeTools {
    /// The largest poster sent inline as an image block; a larger one is a `resource_link` to the file.
    static let inlineImageBytes = 1 << 20

    static func make(_ registry: MethodRegistry) -> [MCPTool] {
        ToolSpec.all.compactMap { spec in
            guard let method = registry.method(named: spec.method) else { return nil }
            return MCPTool(
                name: spec.tool, title: spec.title, description: spec.description,
                inputSchema: inputSchema(method.paramsSchema.document), outputSchema: outputSchema(method.resultSchema),
                annotations: [
                    "title": .string(spec.title), "readOnlyHint": true, "idempotentHint": true,
                    "openWorldHint": .bool(spec.openWorld),
                ],
                arguments: { method.paramsSchema },
                run: { arguments, context in
                    try method.start(context.forwarding(to: method.name, params: arguments))
                },
                extraContent: spec.method == "movie.poster" ? posterContent : nil)
        }
    }

    /// The params schema as a tool's input: without the protocol's `_meta`, which is no argument.
    static func inputSchema(_ document: JSONValue) -> JSONValue {
        guard var schema = document.objectValue else { return document }
        if var properties = schema["properties"]?.objectValue {
            properties["_meta"] = nil
            schema["properties"] = .object(properties)
        }
        return .object(schema)
    }

    /// The result schema as a tool's output schema: an object at the top, as 2025-11-25 clients require.
    static func outputSchema(_ document: JSONValue) -> JSONValue {
        guard var schema = document.objectValue else { return ["type": "object"] }
        if schema["type"] == nil { schema["type"] = "object" }
        return .object(schema)
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
                "name": .string((path as NSString).lastPathComponent), "mimeType": .string(mimeType),
            ]
        ]
    }
}
