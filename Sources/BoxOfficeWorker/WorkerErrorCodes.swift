import JSONRPC

/// The worker's own error codes (protocol.md §4); tests assert the literal numbers.
extension RPCErrorCode {
    public static let upstreamUnavailable = RPCErrorCode(rawValue: -31001)
    public static let upstreamRejected = RPCErrorCode(rawValue: -31002)
    public static let upstreamMalformed = RPCErrorCode(rawValue: -31003)
    public static let notFound = RPCErrorCode(rawValue: -31004)
    public static let quotaExhausted = RPCErrorCode(rawValue: -31005)
    public static let offlineUnavailable = RPCErrorCode(rawValue: -31006)
    public static let notConfigured = RPCErrorCode(rawValue: -31007)
}
