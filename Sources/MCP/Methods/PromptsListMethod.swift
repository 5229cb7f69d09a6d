import JSONCore
import JSONRPC

/// `prompts/list`: every prompt template, in one page.
struct PromptsListMethod: MCPMethod {
    let name = "prompts/list"
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(["prompts": .array(catalog.prompts.map(\.listing))])
    }
}
