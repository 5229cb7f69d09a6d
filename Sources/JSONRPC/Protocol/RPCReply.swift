package import JSONCore

/// What a method's one step comes to: its answer itself, or the work that makes it. One word at every level: a
/// JSON-RPC method's reply holds an ``RPCResult`` (``RPCReply``), a typed method's holds its typed output.
package enum Reply<Value: Sendable>: Sendable {
    /// Answered on the spot, with no task and no hop.
    case ready(Value)
    /// Run in the server's task group, racing the request's cancellation; an ``RPCError`` thrown is the answer,
    /// any other error a `-32603`.
    case work(@Sendable () async throws -> Value)
}

/// What ``RPCMethod/start(_:_:)`` comes to.
package typealias RPCReply = Reply<RPCResult>

extension Reply {
    /// The reply with its value transformed, ready or not.
    package func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Reply<Other> {
        switch self {
        case .ready(let value): .ready(transform(value))
        case .work(let work): .work { transform(try await work()) }
        }
    }

    /// The value, awaited when it is work.
    package func value() async throws -> Value {
        switch self {
        case .ready(let value): value
        case .work(let work): try await work()
        }
    }
}

extension Reply where Value == RPCResult {
    /// A ready answer with a value.
    package static func value(_ value: JSONValue) -> RPCReply { .ready(.value(value)) }

    /// Work whose result is a value.
    package static func later(_ work: @escaping @Sendable () async throws -> JSONValue) -> RPCReply {
        .work { .value(try await work()) }
    }

    /// The same reply with its result transformed: on the spot when it is ready, after the work otherwise. What a
    /// face wraps around a method's result (an MCP tool's content, a resource's contents, a prompt's messages).
    package func mapResult(_ transform: @escaping @Sendable (RPCResult) throws -> RPCResult) throws -> RPCReply {
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
