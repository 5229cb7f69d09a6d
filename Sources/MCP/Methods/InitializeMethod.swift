import JSONCore
import JSONRPC

/// `initialize` (handshake era): agrees on a version (the requested one when this server speaks it, else its newest
/// legacy version) and says what the server offers.
struct InitializeMethod: MCPMethod {
    let name = "initialize"
    let modern = false
    let catalog: MCPCatalog
    let session: MCPSession

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        let version = MCPVersion.negotiated(params["protocolVersion"]?.stringValue)
        session.agree(on: version)
        var result: JSONObject = [
            "protocolVersion": .string(version),
            "capabilities": Capabilities.of(catalog),
            "serverInfo": catalog.info.implementation,
        ]
        if let instructions = catalog.info.instructions { result["instructions"] = .string(instructions) }
        return .value(.object(result))
    }
}

/// What the server declares it can do, in either era.
enum Capabilities {
    static func of(_ catalog: MCPCatalog) -> JSONValue {
        var capabilities: JSONObject = ["tools": ["listChanged": false]]
        if !catalog.resourceTemplates.isEmpty {
            capabilities["resources"] = ["listChanged": false, "subscribe": false]
        }
        if !catalog.prompts.isEmpty { capabilities["prompts"] = ["listChanged": false] }
        return .object(capabilities)
    }
}
