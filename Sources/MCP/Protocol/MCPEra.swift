package import JSONCore
package import JSONRPC

/// Which era one request speaks, read from its `_meta`: modern when it names a protocol version (or the modern
/// client capabilities), legacy (the session's `initialize`) otherwise.
package enum MCPEra: Sendable, Equatable {
    case legacy
    case modern(version: String)

    /// - Throws: `-32022` for a modern version this server does not speak (with `supported` and `requested`),
    ///   `-32602` when a modern request lacks one of the two required `_meta` members.
    package static func of(_ meta: JSONObject?) throws(RPCError) -> MCPEra {
        let version = meta?[MCPMetaKey.protocolVersion]
        let capabilities = meta?[MCPMetaKey.clientCapabilities]
        guard version != nil || capabilities != nil else { return .legacy }
        guard let requested = version?.stringValue else {
            throw RPCError(
                .invalidParams, "params._meta[\"\(MCPMetaKey.protocolVersion)\"] is required on every modern request",
                data: ["missing": [.string(MCPMetaKey.protocolVersion)]])
        }
        guard MCPVersion.modern.contains(requested) else {
            throw RPCError(
                .unsupportedProtocolVersion, "Unsupported protocol version",
                data: [
                    "supported": .array(MCPVersion.supported.map(JSONValue.string)), "requested": .string(requested),
                ])
        }
        guard capabilities?.objectValue != nil else {
            throw RPCError(
                .invalidParams,
                "params._meta[\"\(MCPMetaKey.clientCapabilities)\"] (an object) is required on every modern request",
                data: ["missing": [.string(MCPMetaKey.clientCapabilities)]])
        }
        return .modern(version: requested)
    }

    package var isModern: Bool {
        if case .modern = self { true } else { false }
    }
}

/// The reserved `_meta` keys of the modern era.
package enum MCPMetaKey {
    package static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
    package static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
    package static let clientInfo = "io.modelcontextprotocol/clientInfo"
    package static let serverInfo = "io.modelcontextprotocol/serverInfo"
}

/// MCP's own error codes (the range -32020 … -32099 is MCP's; only the defined ones are used).
extension RPCErrorCode {
    /// The request's `_meta` names a protocol version this server does not speak.
    package static let unsupportedProtocolVersion = RPCErrorCode(rawValue: -32022)
}
