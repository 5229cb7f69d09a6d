import JSONCore
import JSONRPC
import Synchronization
import TestSupport
import Testing

@Suite("RPCServer in-process transcripts")
struct ServerTranscriptTests {
    let server = InProcessServer(methods: TestMethods.all())

    @Test("responses are written as requests complete, not in request order")
    func outOfOrder() async throws {
        // Each answer the host reads opens the gate of the call before it: 3 completes first, then 2, then 1.
        let gates = TestMethods.Gates()
        let server = InProcessServer(methods: TestMethods.all(gates: gates))
        let out = try await server.responses(
            [
                request(1, "test.gate", params: ["name": "after-2"]),
                request(2, "test.gate", params: ["name": "after-3"]),
                request(3, "test.echo"),
            ],
            onLine: { line in
                if line.contains(#""id":3,"#) { gates.open("after-3") }
                if line.contains(#""id":2,"#) { gates.open("after-2") }
            })
        #expect(out.map { $0?[at: "/id"] } == [3, 2, 1])
    }

    @Test("--ordered answers in request order, errors included")
    func ordered() async throws {
        var ordered = server
        ordered.configuration.ordered = true
        let out = try await ordered.responses([
            request(1, "test.sleep", params: ["ms": 200]), "{bad", request(2, "test.echo"),
            #"[{"jsonrpc":"2.0","id":3,"method":"test.sleep","params":{"ms":1}},{"jsonrpc":"2.0","method":"test.echo"}]"#,
            request(nil, "test.sleep", params: ["ms": 1]), request(4, "nope"),
        ])
        #expect(out.count == 5)
        #expect(out[0]?[at: "/id"] == 1)
        #expect(out[1]?[at: "/error/code"] == -32700)
        #expect(out[2]?[at: "/id"] == 2)
        #expect(out[3]?[at: "/0/id"] == 3)
        #expect(out[4]?[at: "/error/code"] == -32601)
    }

    @Test("a mixed batch is one array line; an all-notification batch writes nothing")
    func batches() async throws {
        let out = try await server.responses([
            #"[{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"a":1}},{"jsonrpc":"2.0","method":"test.echo"},1,{"jsonrpc":"2.0","id":2,"method":"test.sleep","params":{"ms":5}},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#,
            #"[{"jsonrpc":"2.0","method":"test.echo"},{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":1}},{"jsonrpc":"2.0","method":"nope"}]"#,
            request(9, "test.echo"),
        ])
        // The immediate request 9 may overtake the batch, which waits for its sleep.
        #expect(out.count == 2)
        let batch = try #require(out.compactMap { $0 }.compactMap(\.arrayValue).first)
        #expect(batch.count == 4)
        #expect(Set(batch.compactMap { $0["id"] }) == [1, 2, 3, .null])
        #expect(batch.first { $0["id"] == 1 }?[at: "/result/a"] == 1)
        #expect(batch.first { $0["id"] == .null }?[at: "/error/code"] == -32600)
        #expect(batch.first { $0["id"] == 3 }?[at: "/error/code"] == -32601)
        #expect(out.contains { $0?[at: "/id"] == 9 })
    }

    @Test("a handler that throws an unexpected error is answered -32603 without internals; serving goes on")
    func crash() async throws {
        let out = try await server.responses([
            request(1, "test.crash"), request(2, "test.echo"), request(3, "test.reject"),
        ])
        let crash = try #require(out.first { $0?["id"] == 1 } ?? nil)
        #expect(crash[at: "/error/code"] == -32603)
        #expect(crash[at: "/error/message"]?.stringValue?.contains("Secret") == false)
        #expect(out.contains { $0?["id"] == 2 && $0?["result"] != nil })
        let rejected = try #require(out.first { $0?["id"] == 3 } ?? nil)
        #expect(rejected[at: "/error/code"] == -31004)
        #expect(rejected[at: "/error/data/reason"] == "not_found")
    }

    @Test("at most max-in-flight handlers run at once")
    func backpressure() async throws {
        // Each call answers only once three run at once: the server lets three run (or the calls never answer),
        // and never a fourth (the peak).
        let concurrency = TestMethods.Concurrency()
        var bounded = InProcessServer(methods: TestMethods.all(concurrency))
        bounded.configuration.maxInFlight = 3
        let out = try await bounded.responses((1...12).map { request(.int($0), "test.together", params: ["count": 3]) })
        #expect(out.count == 12 && out.allSatisfy { $0?["result"] == [:] }, "\(out)")
        #expect(concurrency.peak == 3)
    }

    @Test("a duplicate in-flight id is rejected while the first is in flight")
    func duplicateID() async throws {
        // The first "a" is held until the host has read both refusals, so it is in flight when they are read.
        let gates = TestMethods.Gates()
        let refusals = Watched(0)
        let server = InProcessServer(methods: TestMethods.all(gates: gates))
        let out = try await server.responses(
            [
                request("a", "test.gate", params: ["name": "refused"]), request("a", "test.echo"),
                request("a", "test.sleep", params: ["ms": 1]),
            ],
            onLine: { line in
                guard line.contains("duplicate id") else { return }
                refusals.update { $0 += 1 }
                if refusals.value == 2 { gates.open("refused") }
            })
        #expect(out.count == 3)
        #expect(out[2]?[at: "/result/gate"] == "refused")
        for refusal in out.prefix(2) {
            #expect(refusal?[at: "/error/code"] == -32600)
            #expect(refusal?[at: "/error/message"]?.stringValue?.hasPrefix("duplicate id") == true)
        }
    }

    @Test("$/cancelRequest answers the request with -32800; unknown ids are ignored")
    func cancel() async throws {
        let out = try await server.responses([
            request(1, "test.sleep", params: ["ms": 5000]),
            request(nil, "$/cancelRequest", params: ["id": 1]),
            request(nil, "$/cancelRequest", params: ["id": 99]),
            request(2, "test.echo"),
        ])
        #expect(out.count == 2)
        let cancelled = try #require(out.first { $0?["id"] == 1 } ?? nil)
        #expect(cancelled[at: "/error/code"] == -32800)
    }

    @Test("progress: strictly increasing, before the response, only with a token")
    func progress() async throws {
        let out = try await server.responses([
            request(1, "test.sleep", params: ["ms": 40, "steps": 4, "_meta": ["progressToken": "p"]]),
            request(2, "test.sleep", params: ["ms": 4, "steps": 4]),
            request(3, "test.sleep", params: ["ms": 4, "steps": 2, "_meta": ["progressToken": ["not": "valid"]]]),
        ])
        let progress = out.compactMap { $0 }.filter { $0["method"] == "notifications/progress" }
        #expect(progress.count == 4)
        #expect(progress.allSatisfy { $0[at: "/params/progressToken"] == "p" && $0[at: "/params/total"] == 4 })
        #expect(progress.compactMap { $0[at: "/params/progress"]?.numberValue } == [1, 2, 3, 4])
        let responseIndex = try #require(out.firstIndex { $0?["id"] == 1 })
        let lastProgress = try #require(out.lastIndex { $0?["method"] == "notifications/progress" })
        #expect(lastProgress < responseIndex)
    }

    @Test("_meta is never validated; other unknown params are -32602 with locations")
    func meta() async throws {
        let out = try await server.responses([
            request(1, "test.sleep", params: ["ms": 1, "_meta": ["anything": [1, 2]]]),
            request(2, "test.sleep", params: ["ms": -1, "extra": true]),
            request(3, "test.sleep", params: [1]),
        ])
        let ok = try #require(out.first { $0?["id"] == 1 } ?? nil)
        #expect(ok["result"] != nil)
        let bad = try #require(out.first { $0?["id"] == 2 } ?? nil)
        #expect(bad[at: "/error/code"] == -32602)
        #expect(bad[at: "/error/data/reason"] == "invalid_params")
        let locations = bad[at: "/error/data/errors"]?.arrayValue?.compactMap { $0["instanceLocation"]?.stringValue }
        #expect(Set(locations ?? []) == ["/ms", "/extra"])
        let positional = try #require(out.first { $0?["id"] == 3 } ?? nil)
        #expect(positional[at: "/error/code"] == -32602)
    }

    @Test("EOF with requests in flight: every one is answered before run() returns")
    func drainOnEOF() async throws {
        let out = try await server.responses((1...20).map { request(.int($0), "test.sleep", params: ["ms": 50]) })
        #expect(Set(out.compactMap { $0?["id"] }) == Set((1...20).map { JSONValue.int($0) }))
    }

    @Test("notifications are never answered, even failing or unknown ones")
    func notifications() async throws {
        let out = try await server.transcript([
            request(nil, "nope"), request(nil, "test.crash"), request(nil, "test.sleep", params: ["ms": "x"]),
            request(nil, "test.echo"),
        ])
        #expect(out.isEmpty)
    }
}
