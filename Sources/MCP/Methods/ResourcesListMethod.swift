import JSONCore
import JSONRPC

/// `resources/list`: the concrete resources the catalog names now, in one page.
struct ResourcesListMethod: MCPMethod {
    let name = "resources/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["resources": .array(catalog.resources().map(\.listing))])
    }
}
