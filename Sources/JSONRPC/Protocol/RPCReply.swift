package import JSONCore

/// What ``RPCMethod/start(_:_:)`` comes to: the answer itself, or the work that makes it.
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

    /// The same reply with its result transformed: on the spot when it is ready, after the work otherwise. What a
    /// face wraps around a method's result (an MCP tool's content, a resource's contents, a prompt's messages).
    package func map(_ transform: @escaping @Sendable (RPCResult) throws -> RPCResult) throws -> RPCReply {
        switch self {
        case .ready(let result): .ready(try transform(result))
        case .work(let work): .work { try transform(try await work()) }
        }
    }

    /// The same reply with an ``RPCError`` of its work answered by `recover` (an MCP tool's failure is a result).
    package func recovering(_ recover: @escaping @Sendable (RPCError) -> RPCResult) -> RPCReply {
        switch self {
        case .ready: self
        case .work(let work):
            .work {
                do {
                    return try await work()
                } catch let error as RPCError {
                    return recover(error)
                }
            }
        }
    }
}
