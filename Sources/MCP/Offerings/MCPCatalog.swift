package import JSONRPC

/// Everything an MCP server offers: who it is, its tools, resources and prompts. Built once by the application
/// (the worker makes its tools from its method table) and never changed.
package struct MCPCatalog: Sendable {
    package var info: MCPServerInfo
    /// In listing order.
    package var tools: [MCPTool]
    package var resourceTemplates: [MCPResourceTemplate]
    /// The concrete resources to list now.
    package var resources: @Sendable () -> [MCPResource]
    /// Reads a resource by URI: its JSON as a method reply, or nil when no resource has that URI.
    package var read: @Sendable (_ uri: String, _ context: RequestContext) throws -> RPCReply?
    package var prompts: [MCPPrompt]

    package init(
        info: MCPServerInfo, tools: [MCPTool], resourceTemplates: [MCPResourceTemplate],
        resources: @escaping @Sendable () -> [MCPResource],
        read: @escaping @Sendable (String, RequestContext) throws -> RPCReply?, prompts: [MCPPrompt]
    ) {
        self.info = info
        self.tools = tools
        self.resourceTemplates = resourceTemplates
        self.resources = resources
        self.read = read
        self.prompts = prompts
    }

    func tool(named name: String) -> MCPTool? {
        tools.first { $0.name == name }
    }
}
