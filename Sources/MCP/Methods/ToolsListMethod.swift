import JSONCore
import JSONRPC

/// `tools/list`: every tool, in a fixed order, in one page.
struct ToolsListMethod: MCPMethod {
    let name = "tools/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["tools": .array(catalog.tools.map(\.listing))])
    }
}
