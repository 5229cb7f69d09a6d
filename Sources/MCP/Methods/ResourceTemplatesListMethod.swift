import JSONCore
import JSONRPC

/// `resources/templates/list`: the URI templates of the resources that can be read.
struct ResourceTemplatesListMethod: MCPMethod {
    let name = "resources/templates/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["resourceTemplates": .array(catalog.resourceTemplates.map(\.listing))])
    }
}
