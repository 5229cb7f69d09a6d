import JSONCore
import JSONRPC
import JSONSchema
import Synchronization
import TestSupport

/// Methods for driving the server in-process: echo, slow, failing, progress.
enum TestMethods {
    static let anyObject = try! JSONSchema(["type": "object"])

    /// Returns its params, on the responder thread.
    struct Echo: RPCMethod {
        let name = "test.echo"
        let summary = "echo"
        let paramsSchema = TestMethods.anyObject
        let resultSchema: JSONValue = ["type": "object"]
        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply { .value(.object(params)) }
    }

    /// Counts how many calls run at once, and lets calls wait for each other in groups (a barrier).
    final class Concurrency: Sendable {
        private let running = Watched((current: 0, peak: 0, arrived: 0))
        var peak: Int { running.value.peak }
        func enter() {
            running.update { state in
                state.current += 1
                state.peak = max(state.peak, state.current)
            }
        }
        func leave() { running.update { $0.current -= 1 } }
        /// Arrives at a barrier of groups of `count`: the n-th arrival (from 0) waits until the whole of its group,
        /// arrivals up to `(n / count + 1) * count`, has arrived. Whether it did within 30 s.
        func together(_ count: Int) async -> Bool {
            var arrival = 0
            running.update { state in
                arrival = state.arrived
                state.arrived += 1
            }
            let group = (arrival / count + 1) * count
            return await running.wait(timeout: 30) { $0.arrived >= group }
        }
    }

    /// Gates a test opens by name (each call's answer can open the next call's gate).
    final class Gates: Sendable {
        private let opened = Watched(Set<String>())
        func open(_ name: String) { opened.update { _ = $0.insert(name) } }
        /// Whether `name` was opened within 30 s.
        func wait(_ name: String) async -> Bool { await opened.wait(timeout: 30) { $0.contains(name) } }
    }

    /// Answers once the gate `name` is open: the test decides when, so no clock decides an order.
    struct Gate: RPCMethod {
        let name = "test.gate"
        let summary = "gate"
        let paramsSchema = try! JSONSchema([
            "type": "object", "required": ["name"], "properties": ["name": ["type": "string"]],
            "additionalProperties": false,
        ])
        let resultSchema: JSONValue = ["type": "object"]
        let gates: Gates

        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
            let gate = params["name"]?.stringValue ?? ""
            return .later { [gates] in
                guard await gates.wait(gate) else { throw RPCError(.internalError, "gate \(gate) never opened") }
                return ["gate": .string(gate)]
            }
        }
    }

    /// Answers once its group of `count` calls has arrived (a barrier): a server that lets fewer than `count` run at
    /// once never answers them, and one that lets more run shows it in the peak, whatever the machine's speed.
    struct Together: RPCMethod {
        let name = "test.together"
        let summary = "together"
        let paramsSchema = try! JSONSchema([
            "type": "object", "required": ["count"], "properties": ["count": ["type": "integer", "minimum": 1]],
            "additionalProperties": false,
        ])
        let resultSchema: JSONValue = ["type": "object"]
        let concurrency: Concurrency

        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
            let count = Int(params["count"]?.integerValue ?? 1)
            return .later { [concurrency] in
                concurrency.enter()
                defer { concurrency.leave() }
                guard await concurrency.together(count) else {
                    throw RPCError(.internalError, "\(count) calls never ran at once")
                }
                return [:]
            }
        }
    }

    /// Sleeps `ms`, reporting `steps` progress notifications; cancellable. Work that takes time, for what needs a
    /// call to last; an order a test asserts is decided by ``Gate`` instead.
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

        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
            .later { try await work(params, context) }
        }

        private func work(_ params: JSONObject, _ context: RequestContext) async throws -> JSONValue {
            concurrency.enter()
            defer { concurrency.leave() }
            let ms = params["ms"]?.integerValue ?? 0
            let steps = params["steps"]?.integerValue ?? 1
            for step in 1...steps {
                try await Task.sleep(for: .milliseconds(ms / steps))  // sleep-ok: work that takes time
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
        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply { .later { throw Secret() } }
    }

    /// Throws a specific RPCError, which must reach the wire as is.
    struct Reject: RPCMethod {
        let name = "test.reject"
        let summary = "reject"
        let paramsSchema = TestMethods.anyObject
        let resultSchema: JSONValue = false
        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
            .later { throw RPCError(RPCErrorCode(rawValue: -31004), "not found", data: ["reason": "not_found"]) }
        }
    }

    static func all(_ concurrency: Concurrency = Concurrency(), gates: Gates = Gates()) -> [any RPCMethod] {
        [
            Echo(), Sleep(concurrency: concurrency), Crash(), Reject(), Gate(gates: gates),
            Together(concurrency: concurrency),
        ]
    }
}
