import JSONCore
import JSONRPC

/// `server/discover` (modern era, mandatory): versions, capabilities, identity and instructions, before or instead
/// of anything else; may be the first line a process sees.
struct ServerDiscoverMethod: MCPMethod {
    let name = "server/discover"
    let legacy = false
    let cacheable = true
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        var result: JSONObject = [
            "supportedVersions": .array(MCPVersion.supported.map(JSONValue.string)),
            "capabilities": Capabilities.of(catalog),
            "_meta": [MCPMetaKey.serverInfo: catalog.info.implementation],
        ]
        if let instructions = catalog.info.instructions { result["instructions"] = .string(instructions) }
        return .value(.object(result))
    }
}
