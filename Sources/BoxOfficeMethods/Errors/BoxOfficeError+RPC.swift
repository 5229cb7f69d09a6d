package import BoxOfficeCore
package import JSONCore
package import JSONRPC
import JSONSchema

/// The one place where domain errors become JSON-RPC errors (protocol.md §4).
extension BoxOfficeError {
    package var rpcError: RPCError {
        if reason == .invalidArgument {
            return RPCError.invalidParams(at: argument.map(Self.param) ?? .root, message)
        }
        let code: RPCErrorCode =
            switch reason {
            case .upstreamUnavailable: .upstreamUnavailable
            case .upstreamRejected: .upstreamRejected
            case .upstreamMalformed: .upstreamMalformed
            case .notFound: .notFound
            case .quotaExhausted: .quotaExhausted
            case .offlineUnavailable: .offlineUnavailable
            case .notConfigured: .notConfigured
            case .invalidArgument: .invalidParams
            case .storageFull: .storageFull
            }
        var data: JSONObject = ["reason": .string(reason.rawValue)]
        if let service { data["service"] = .string(service.rawValue) }
        switch reason {
        case .upstreamUnavailable:
            data["retryable"] = true
            if let status { data["status"] = .int(status) }
            if let retryAfterSeconds { data["retryAfter"] = .int(retryAfterSeconds) }
        case .upstreamRejected:
            data["upstreamCode"] = .optionalString(upstreamCode)
            data["upstreamMessage"] = .optionalString(upstreamMessage)
            if let status { data["status"] = .int(status) }
        case .upstreamMalformed:
            if let path { data["path"] = .string(path) }
        case .notFound:
            if let movieCode { data["movieCode"] = .string(movieCode) }
            if let peopleCode { data["peopleCode"] = .string(peopleCode) }
            if let companyCode { data["companyCode"] = .string(companyCode) }
        case .quotaExhausted:
            if let limit { data["limit"] = .int(limit) }
            if let resetsAt { data["resetsAt"] = .string(resetsAt) }
            if let upstreamCode { data["upstreamCode"] = .string(upstreamCode) }
        case .offlineUnavailable:
            data["available"] = .array((available ?? []).map(JSONValue.string))
        case .notConfigured:
            if let setting { data["setting"] = .string(setting) }
        case .invalidArgument:
            break
        case .storageFull:
            if let directory { data["directory"] = .string(directory) }
        }
        return RPCError(code, message, data: .object(data))
    }
}

extension BoxOfficeError {
    /// Where a domain argument is in a method's params.
    package static func param(_ argument: Argument) -> JSONPointer {
        switch argument {
        case .date: JSONPointer(tokens: ["date"])
        case .area: JSONPointer(tokens: ["area"])
        }
    }
}

/// Runs a synchronous domain step (a request's plan), turning its error into the wire error.
package func withWireErrors<T>(_ body: () throws(BoxOfficeError) -> T) throws(RPCError) -> T {
    do {
        return try body()
    } catch {
        throw error.rpcError
    }
}

/// Runs a domain call, turning its error into the wire error.
package func withWireErrors<T>(_ body: () async throws(BoxOfficeError) -> T) async throws(RPCError) -> T {
    do {
        return try await body()
    } catch {
        throw error.rpcError
    }
}

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
