/// A JSON-RPC error code. The JSON-RPC 2.0 codes are named here; an application names its own in an extension.
package struct RPCErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int64
    package init(rawValue: Int64) { self.rawValue = rawValue }

    /// The line is not JSON (or holds a number Jansson cannot represent, or invalid UTF-8).
    package static let parseError = RPCErrorCode(rawValue: -32700)
    /// Valid JSON that is not a well-formed request; also over-long lines, over-large batches, duplicate ids.
    package static let invalidRequest = RPCErrorCode(rawValue: -32600)
    package static let methodNotFound = RPCErrorCode(rawValue: -32601)
    package static let invalidParams = RPCErrorCode(rawValue: -32602)
    /// A handler failed unexpectedly; the message never carries internals.
    package static let internalError = RPCErrorCode(rawValue: -32603)
    /// Cancelled by `$/cancelRequest` or by shutdown (the LSP code, which MCP hosts also know).
    package static let requestCancelled = RPCErrorCode(rawValue: -32800)

    package var description: String { String(rawValue) }
}
