package import JSONCore
package import JSONRPC

/// One tool: how it is listed, and the method behind it.
///
/// The MCP layer calls the method through its one entrance (``RPCMethod/enter(_:_:)``: the arguments checked
/// against the method's own params schema, then its one step) and turns what comes back (a result, or an error it
/// throws) into a `CallToolResult`: a text block with the JSON and `structuredContent`, or `isError: true` with
/// the error, so a model can read what went wrong and try again.
package struct MCPTool: Sendable {
    package var name: String
    package var title: String
    package var description: String
    package var inputSchema: JSONValue
    package var outputSchema: JSONValue?
    /// `readOnlyHint`, `idempotentHint`, `openWorldHint`, …
    package var annotations: JSONObject
    /// The method the tool runs, with the tool's arguments as its params. An ``RPCError`` it throws becomes an
    /// `isError` result; any other error a `-32603`.
    package var method: any RPCMethod
    /// Content blocks to add after the text block, made from the result (an image, a link to a file), and the
    /// result as the text block and `structuredContent` then carry it (a card's picture moves out of it into an
    /// `image` block, so a model does not read its base64).
    package var extraContent: (@Sendable (JSONValue) -> (result: JSONValue, blocks: [JSONValue]))?
    /// Whether a result the method gives as kept text is answered from its kept `CallToolResult` as it is: true
    /// when no extra content can come of such a result (a card is never in kept text).
    package var keepsText: Bool

    package init(
        name: String, title: String, description: String, inputSchema: JSONValue, outputSchema: JSONValue?,
        annotations: JSONObject, method: any RPCMethod,
        extraContent: (@Sendable (JSONValue) -> (result: JSONValue, blocks: [JSONValue]))? = nil, keepsText: Bool? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.inputSchema = inputSchema
        self.outputSchema = outputSchema
        self.annotations = annotations
        self.method = method
        self.extraContent = extraContent
        self.keepsText = keepsText ?? (extraContent == nil)
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
