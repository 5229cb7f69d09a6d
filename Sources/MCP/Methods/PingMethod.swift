import JSONCore
import JSONRPC

/// `ping` (handshake era; gone in the modern one): `{}` at once.
struct PingMethod: MCPMethod {
    let name = "ping"
    let modern = false

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(.object([:]))
    }
}
