package import JSONCore
import JSONSchema

/// What ``RPCMethod/start(_:)`` comes to: the answer itself, or the work that makes it.
package enum RPCReply: Sendable {
    /// Answered on the spot, with no task and no hop.
    case ready(RPCResult)
    /// Run in the server's task group, racing the request's cancellation.
    case work(@Sendable () async throws -> RPCResult)

    /// A ready answer with a value.
    package static func value(_ value: JSONValue) -> RPCReply { .ready(.value(value)) }

    /// Work whose result is a value.
    package static func later(_ work: @escaping @Sendable () async throws -> JSONValue) -> RPCReply {
        .work { .value(try await work()) }
    }
}
