package import JSONCore
package import JSONRPC
package import JSONSchema

/// One tool: how it is listed, how its arguments are checked, and what runs it.
///
/// The MCP layer validates the arguments with ``arguments`` and turns what ``run`` gives (a result, or an error it
/// throws) into a `CallToolResult`: a text block with the JSON and `structuredContent`, or `isError: true` with the
/// error, so a model can read what went wrong and try again.
package struct MCPTool: Sendable {
    package var name: String
    package var title: String
    package var description: String
    package var inputSchema: JSONValue
    package var outputSchema: JSONValue?
    /// `readOnlyHint`, `idempotentHint`, `openWorldHint`, …
    package var annotations: JSONObject
    /// The compiled schema arguments must match (the method's own params schema).
    package var arguments: @Sendable () -> JSONSchema
    /// Runs the tool with valid arguments: its result as a method reply (ready or work). An ``RPCError`` it throws
    /// becomes an `isError` result; any other error a `-32603`.
    package var run: @Sendable (_ arguments: JSONObject, _ context: RequestContext) throws -> RPCReply
    /// Content blocks to add after the text block, made from the result (an image, a link to a file).
    package var extraContent: (@Sendable (JSONValue) -> [JSONValue])?

    package init(
        name: String, title: String, description: String, inputSchema: JSONValue, outputSchema: JSONValue?,
        annotations: JSONObject, arguments: @escaping @Sendable () -> JSONSchema,
        run: @escaping @Sendable (JSONObject, RequestContext) throws -> RPCReply,
        extraContent: (@Sendable (JSONValue) -> [JSONValue])? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.inputSchema = inputSchema
        self.outputSchema = outputSchema
        self.annotations = annotations
        self.arguments = arguments
        self.run = run
        self.extraContent = extraContent
    }

    /// The tool as `tools/list` shows it.
    var listing: JSONValue {
        var tool: JSONObject = [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema, "annotations": .object(annotations),
        ]
        if let outputSchema { tool["outputSchema"] = outputSchema }
        return .object(tool)
    }
}
