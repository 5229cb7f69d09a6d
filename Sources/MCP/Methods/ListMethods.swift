import JSONCore
import JSONRPC

// The list methods of MCP: tools, prompts, resources and resource templates, each in one page.

/// `tools/list`: every tool, in a fixed order, in one page.
struct ToolsListMethod: MCPMethod {
    let name = "tools/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["tools": .array(catalog.tools.map(\.listing))])
    }
}

/// `prompts/list`: every prompt template, in one page.
struct PromptsListMethod: MCPMethod {
    let name = "prompts/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["prompts": .array(catalog.prompts.map(\.listing))])
    }
}

/// `resources/list`: the concrete resources the catalog names now, in one page.
struct ResourcesListMethod: MCPMethod {
    let name = "resources/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["resources": .array(catalog.resources().map(\.listing))])
    }
}

/// `resources/templates/list`: the URI templates of the resources that can be read.
struct ResourceTemplatesListMethod: MCPMethod {
    let name = "resources/templates/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["resourceTemplates": .array(catalog.resourceTemplates.map(\.listing))])
    }
}
