package import JSONRPC

/// The worker's own error codes (protocol.md §4); tests assert the literal numbers.
extension RPCErrorCode {
    package static let upstreamUnavailable = RPCErrorCode(rawValue: -31001)
    package static let upstreamRejected = RPCErrorCode(rawValue: -31002)
    package static let upstreamMalformed = RPCErrorCode(rawValue: -31003)
    package static let notFound = RPCErrorCode(rawValue: -31004)
    package static let quotaExhausted = RPCErrorCode(rawValue: -31005)
    package static let offlineUnavailable = RPCErrorCode(rawValue: -31006)
    package static let notConfigured = RPCErrorCode(rawValue: -31007)
    /// The disk under the cache directory is full: not a setting to change, space to free.
    package static let storageFull = RPCErrorCode(rawValue: -31008)
}
