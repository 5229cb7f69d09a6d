import JSONCore
import JSONRPC

/// `notifications/initialized`: the end of the handshake. Nothing to do (and, being a notification, nothing to
/// answer); requests are served whether it came or not.
struct InitializedNotification: MCPMethod {
    let name = "notifications/initialized"
    let modern = false

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        .value(.object([:]))
    }
}
