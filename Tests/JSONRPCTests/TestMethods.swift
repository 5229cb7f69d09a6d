import JSONCore
import JSONRPC
import JSONSchema
import Synchronization

/// Methods for driving the server in-process: echo, slow, failing, progress.
enum TestMethods {
    static let anyObject = try! JSONSchema(["type": "object"])

    /// Returns its params, on the reader thread.
    struct Echo: RPCMethod {
        let name = "test.echo"
        let summary = "echo"
        let paramsSchema = TestMethods.anyObject
        let resultSchema: JSONValue = ["type": "object"]
        func start(_ context: RequestContext) throws -> RPCReply { .value(.object(context.params)) }
    }

    /// Counts how many calls run at once.
    final class Concurrency: Sendable {
        let current = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        func enter() {
            let now = current.add(1, ordering: .relaxed).newValue
            var seen = peak.load(ordering: .relaxed)
            while now > seen {
                let (exchanged, original) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                if exchanged { break }
                seen = original
            }
        }
        func leave() { current.subtract(1, ordering: .relaxed) }
    }

    /// Sleeps `ms`, reporting `steps` progress notifications; cancellable.
    struct Sleep: RPCMethod {
        let name = "test.sleep"
        let summary = "sleep"
        let paramsSchema = try! JSONSchema([
            "type": "object", "required": ["ms"],
            "properties": ["ms": ["type": "integer", "minimum": 0], "steps": ["type": "integer", "minimum": 1]],
            "additionalProperties": false,
        ])
        let resultSchema: JSONValue = ["type": "object"]
        let concurrency: Concurrency

        func start(_ context: RequestContext) throws -> RPCReply {
            .later { try await sleep(context) }
        }

        private func sleep(_ context: RequestContext) async throws -> JSONValue {
            concurrency.enter()
            defer { concurrency.leave() }
            let ms = context.params["ms"]?.integerValue ?? 0
            let steps = context.params["steps"]?.integerValue ?? 1
            for step in 1...steps {
                try await Task.sleep(for: .milliseconds(ms / steps))
                context.reportProgress(Double(step), total: Double(steps))
            }
            return ["slept": .integer(ms)]
        }
    }

    /// Throws an error that is not an RPCError: must become -32603 without details.
    struct Crash: RPCMethod {
        struct Secret: Error {}
        let name = "test.crash"
        let summary = "crash"
        let paramsSchema = TestMethods.anyObject
        let resultSchema: JSONValue = false
        func start(_ context: RequestContext) throws -> RPCReply { .later { throw Secret() } }
    }

    /// Throws a specific RPCError, which must reach the wire as is.
    struct Reject: RPCMethod {
        let name = "test.reject"
        let summary = "reject"
        let paramsSchema = TestMethods.anyObject
        let resultSchema: JSONValue = false
        func start(_ context: RequestContext) throws -> RPCReply {
            .later { throw RPCError(RPCErrorCode(rawValue: -31004), "not found", data: ["reason": "not_found"]) }
        }
    }

    static func all(_ concurrency: Concurrency = Concurrency()) -> [any RPCMethod] {
        [Echo(), Sleep(concurrency: concurrency), Crash(), Reject()]
    }
}
