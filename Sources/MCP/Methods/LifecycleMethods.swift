import JSONCore
import JSONRPC

// MCP's lifecycle beside `initialize`: `ping`, and the client's `notifications/initialized`.

/// `ping` (handshake era; gone in the modern one): `{}` at once.
struct MCPPingMethod: MCPMethod {
    let name = "ping"
    let modern = false

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(.object([:]))
    }
}

/// `notifications/initialized`: the end of the handshake. Nothing to do (and, being a notification, nothing to
/// answer); requests are served whether it came or not.
struct InitializedNotification: MCPMethod {
    let name = "notifications/initialized"
    let modern = false

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(.object([:]))
    }
}
