package import JSONRPC

/// MCP's own error codes (the range -32020 … -32099 is MCP's; only the defined ones are used).
extension RPCErrorCode {
    /// The request's `_meta` names a protocol version this server does not speak.
    package static let unsupportedProtocolVersion = RPCErrorCode(rawValue: -32022)
}
