import JSONCore
import JSONRPC

/// `tools/call`: an unknown tool is a protocol error (`-32602`); arguments that do not match the tool's schema, and
/// failures of the tool itself, are results with `isError: true`, so a model sees them and can correct itself.
struct ToolsCallMethod: MCPMethod {
    let name = "tools/call"
    let catalog: MCPCatalog
    /// One per tool without extra content (whose results are plain text and structured content).
    private let memos: [String: ToolResultMemo]

    init(catalog: MCPCatalog) {
        self.catalog = catalog
        memos = Dictionary(
            uniqueKeysWithValues: catalog.tools.filter(\.keepsText).map { ($0.name, ToolResultMemo()) })
    }

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        guard let toolName = params["name"]?.stringValue else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["name"]), "tools/call needs the tool's name")
        }
        guard let tool = catalog.tool(named: toolName) else {
            throw RPCError(
                .invalidParams, "Unknown tool: \(toolName)",
                data: ["tools": .array(catalog.tools.map { .string($0.name) })])
        }
        let arguments: JSONObject
        switch params["arguments"] {
        case nil, .null?:
            arguments = [:]
        case .object(let object)?:
            arguments = object
        case let other?:
            let error = RPCError.invalidParams(at: .root, "arguments must be an object, not \(other.typeName)")
            return .ready(ToolResult.failure(error, tool: toolName))
        }
        // The arguments the tool lists, and no other: a method may take more than its tool offers (`chat`, and
        // `card` beside the daily tool), and a host holds a model to the listed schema, so the tool does too.
        if tool.inputSchema["additionalProperties"] == .bool(false),
            let listed = tool.inputSchema["properties"]?.objectValue,
            let unlisted = arguments.keys.sorted().first(where: { listed[$0] == nil })
        {
            let error = RPCError.invalidParams(
                at: JSONPointer(tokens: [unlisted]), "\(toolName) takes no argument \(unlisted)")
            return .ready(ToolResult.failure(error, tool: toolName))
        }
        let reply: RPCReply
        do {
            reply = try tool.method.enter(arguments, context)
        } catch let error as RPCError {
            return .ready(ToolResult.failure(error, tool: toolName))
        }
        return try reply.mapResult { success($0, tool) }.recovering { ToolResult.failure($0, tool: toolName) }
    }

    private func success(_ result: RPCResult, _ tool: MCPTool) -> RPCResult {
        if case .encoded(let text) = result, let memo = memos[tool.name] {
            return .encoded(memo.result(for: text) { ToolResult.successText($0, extra: []) })
        }
        guard let extraContent = tool.extraContent, let value = try? result.value() else {
            return ToolResult.success(result, extra: [])
        }
        let (shaped, blocks) = extraContent(value)
        return ToolResult.success(.value(shaped), extra: blocks)
    }
}
