import JSONCore
import TestSupport
import Testing
import WorkerTestSupport

/// Lines in, lines out, through the worker's own method table served in memory: each rule of protocol.md §2.
/// What only a process shows (exit codes, signals, stderr, pipes) is in `WorkerEndToEndTests`.
@Suite("boxoffice-worker transcripts")
struct TranscriptTests {
    /// Serves `lines` to end of input with the worker those flags make; every output line must be JSON.
    func run(_ lines: [String], arguments: [String] = []) async throws -> [JSONValue] {
        try await OfflineWorker(arguments).jsonRPC.json(lines)
    }

    func single(_ line: String, arguments: [String] = []) async throws -> JSONValue {
        let out = try await run([line], arguments: arguments)
        #expect(out.count == 1, "\(line) → \(out)")
        return try #require(out.first)
    }

    @Test("ping answers {} with the id it was sent")
    func ping() async throws {
        #expect(try await single(request(1, "ping")) == JSONValue(json: #"{"jsonrpc":"2.0","id":1,"result":{}}"#))
    }

    @Test(
        "the id is echoed as the same JSON value",
        arguments: ["7", "1.5", #""x""#, #""한글""#, "null", "-3", "0.1", "1e2", #""""#])
    func idEcho(id: String) async throws {
        let line = #"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#
        let response = try await single(line)
        #expect(response["id"] == JSONValue(json: id))
        // Byte for byte: an integer stays an integer, a real a real.
        let lines = try await OfflineWorker().jsonRPC.transcript([line])
        let expectedText: String =
            switch id {
            case "1e2": "100.0"
            default: id
            }
        #expect(lines.first?.contains(#""id":\#(expectedText),"#) == true, "\(lines)")
    }

    // The JSON-RPC 2.0 specification's examples, adapted to this worker's methods.

    @Test("spec: a non-existent method → -32601")
    func unknownMethod() async throws {
        let response = try await single(#"{"jsonrpc":"2.0","method":"foobar","id":"1"}"#)
        #expect(response[at: "/error/code"] == -32601)
        #expect(response["id"] == "1")
    }

    @Test("spec: invalid JSON → -32700 with id null")
    func invalidJSON() async throws {
        let response = try await single(#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#)
        #expect(response[at: "/error/code"] == -32700)
        #expect(response["id"] == .null)
    }

    @Test("spec: invalid request object → -32600 with id null")
    func invalidRequest() async throws {
        let response = try await single(#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#)
        #expect(response[at: "/error/code"] == -32600)
        #expect(response["id"] == .null)
    }

    @Test("spec: a batch that fails to parse → one -32700 object")
    func invalidBatchJSON() async throws {
        let response = try await single(#"[{"jsonrpc":"2.0","method":"ping","id":"1"},{"jsonrpc":"2.0","method""#)
        #expect(response[at: "/error/code"] == -32700)
    }

    @Test("spec: an empty array → one -32600 object")
    func emptyBatch() async throws {
        let response = try await single("[]")
        #expect(response.objectValue != nil)
        #expect(response[at: "/error/code"] == -32600)
    }

    @Test("spec: [1] and [1,2,3] → arrays of -32600 objects")
    func invalidBatch() async throws {
        let one = try await single("[1]")
        #expect(one.arrayValue?.count == 1)
        let three = try await single("[1,2,3]")
        #expect(three.arrayValue?.count == 3)
        #expect(three.arrayValue?.allSatisfy { $0[at: "/error/code"] == -32600 && $0["id"] == .null } == true)
    }

    @Test("spec: a mixed batch → one array of the answers to its requests")
    func mixedBatch() async throws {
        let response = try await single(
            #"""
            [{"jsonrpc":"2.0","method":"ping","id":"1"},{"jsonrpc":"2.0","method":"ping"},{"foo":"boo"},{"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"},{"jsonrpc":"2.0","method":"worker.status","id":"9"}]
            """#)
        let answers = try #require(response.arrayValue)
        #expect(answers.count == 4)
        #expect(answers.first { $0["id"] == "1" }?["result"] == [:])
        #expect(answers.first { $0["id"] == .null }?[at: "/error/code"] == -32600)
        #expect(answers.first { $0["id"] == "5" }?[at: "/error/code"] == -32601)
        #expect(answers.first { $0["id"] == "9" }?[at: "/result/name"] == "boxoffice-worker")
    }

    @Test("spec: an all-notification batch → no output at all")
    func notificationBatch() async throws {
        #expect(try await run([#"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"nope"}]"#]).isEmpty)
    }

    @Test("notifications are never answered, even for unknown methods or bad params")
    func notifications() async throws {
        #expect(
            try await run([request(nil, "ping"), request(nil, "nope"), request(nil, "ping", params: ["x": 1])]).isEmpty)
    }

    @Test("bare scalars are -32600, not -32700", arguments: ["1", "null", #""x""#, "true", "1.5"])
    func bareScalars(line: String) async throws {
        let response = try await single(line)
        #expect(response[at: "/error/code"] == -32600)
        #expect(response["id"] == .null)
    }

    @Test(
        "trailing garbage, duplicate keys, numbers beyond 64 bits, 1e999 → -32700",
        arguments: [
            #"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#,
            #"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1e999,"method":"ping"}"#,
        ])
    func parseErrors(line: String) async throws {
        let response = try await single(line)
        #expect(response[at: "/error/code"] == -32700)
        #expect(response["id"] == .null)
    }

    @Test("a number beyond 64 bits gets a message that says so")
    func bigNumberMessage() async throws {
        let response = try await single(#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#)
        #expect(response[at: "/error/message"]?.stringValue?.contains("too large") == true)
    }

    @Test("CRLF line ends and blank lines are accepted")
    func crlfAndBlanks() async throws {
        let out = try await OfflineWorker().jsonRPC.json(
            bytes: Array("\r\n\n  \n\(request(1, "ping"))\r\n\t\n\(request(2, "ping"))".utf8))
        #expect(out.compactMap { $0["id"] } == [1, 2])
    }

    @Test("invalid UTF-8 → -32700, and the worker keeps serving")
    func invalidUTF8() async throws {
        let bad: [UInt8] = Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        let values = try await OfflineWorker().jsonRPC.json(bytes: bad + Array((request(2, "ping") + "\n").utf8))
        #expect(values.count == 2)
        #expect(values[0][at: "/error/code"] == -32700)
        #expect(values[0][at: "/error/message"]?.stringValue?.contains("UTF-8") == true)
        #expect(values[1]["id"] == 2)
    }

    @Test("an over-long line → -32600 'request too large' with id null, the next line still served")
    func overLongLine() async throws {
        let long = request(1, "ping", params: ["pad": .string(String(repeating: "x", count: 5000))])
        let out = try await run([long, request(2, "ping")], arguments: ["--max-line-bytes", "1024", "--ordered"])
        #expect(out.count == 2)
        #expect(out[0][at: "/error/code"] == -32600)
        #expect(out[0]["id"] == .null)
        #expect(out[0][at: "/error/message"]?.stringValue?.hasPrefix("request too large") == true)
        #expect(out[1]["id"] == 2)
    }

    @Test("a 4 MiB line with the default limit is refused without buffering it")
    func hugeLine() async throws {
        let huge = "[" + String(repeating: "1,", count: 2 << 20) + "1]"
        let out = try await run([huge, request(2, "ping")], arguments: ["--ordered"])
        #expect(out.map { $0[at: "/error/code"] ?? $0["id"] } == [-32600, 2])
    }

    @Test("an over-large batch → one -32600 'batch too large'")
    func overLargeBatch() async throws {
        let batch = "[" + (1...5).map { request(.int($0), "ping") }.joined(separator: ",") + "]"
        let response = try await single(batch, arguments: ["--max-batch", "4"])
        #expect(response[at: "/error/code"] == -32600)
        #expect(response[at: "/error/message"]?.stringValue?.hasPrefix("batch too large") == true)
    }

    @Test("nesting beyond Jansson's limit → -32700")
    func deepNesting() async throws {
        let response = try await single(String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000))
        #expect(response[at: "/error/code"] == -32700)
    }

    @Test("params must be named: an array → -32602; a scalar → -32600")
    func paramsShape() async throws {
        #expect(try await single(request(1, "ping", params: [1]))[at: "/error/code"] == -32602)
        #expect(
            try await single(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#)[at: "/error/code"] == -32600)
    }

    @Test("_meta is always allowed; unknown params are -32602 with their location")
    func metaAndUnknownParams() async throws {
        #expect(try await single(request(1, "ping", params: ["_meta": ["progressToken": 1]]))["result"] == [:])
        let response = try await single(request(2, "worker.status", params: ["verbose": true]))
        #expect(response[at: "/error/code"] == -32602)
        #expect(response[at: "/error/data/errors/0/instanceLocation"] == "/verbose")
    }

    @Test("duplicate in-flight id → -32600 'duplicate id'")
    func duplicateID() async throws {
        let out = try await run(
            [
                request(1, "diagnostics.sleep", params: ["ms": 300]), request(1, "ping"),
                request(1, "diagnostics.sleep", params: ["ms": 1]),
            ], arguments: ["--diagnostics", "--ordered"])
        #expect(out.count == 3)
        #expect(out[0][at: "/result/sleptMs"] == 300)
        #expect(out[1][at: "/error/message"]?.stringValue?.hasPrefix("duplicate id") == true)
        #expect(out[2][at: "/error/code"] == -32600)
    }

    @Test("$/cancelRequest → the request is answered with -32800")
    func cancel() async throws {
        // The cancellation is read while the 30-second request is in flight (every line is read before work runs),
        // so the transcript ends only because the cancellation worked.
        let out = try await run(
            [
                request("slow", "diagnostics.sleep", params: ["ms": 30000]), request(1, "ping"),
                request(nil, "$/cancelRequest", params: ["id": "slow"]),
            ], arguments: ["--diagnostics"])
        #expect(out.count == 2)
        #expect(out.first { $0["id"] == 1 }?["result"] == [:])
        let cancelled = out.first { $0["id"] == "slow" }
        #expect(cancelled?[at: "/error/code"] == -32800)
    }

    @Test("--ordered answers in request order")
    func ordered() async throws {
        let out = try await run(
            [
                request(1, "diagnostics.sleep", params: ["ms": 200]), request(2, "ping"), "oops",
                request(3, "diagnostics.sleep", params: ["ms": 10]),
            ], arguments: ["--diagnostics", "--ordered"])
        #expect(out.map { $0["id"] } == [1, 2, .null, 3])
    }

    @Test("without --ordered, a fast answer overtakes a slow one (the slow one is still running when ping is read)")
    func unordered() async throws {
        let out = try await run(
            [request(1, "diagnostics.sleep", params: ["ms": 300]), request(2, "ping")], arguments: ["--diagnostics"])
        #expect(out.map { $0["id"] } == [2, 1])
    }

    @Test("a handler crash → -32603 without internals, and the worker keeps serving")
    func crash() async throws {
        let lines = try await OfflineWorker(["--diagnostics", "--ordered"]).jsonRPC.transcript([
            request(1, "diagnostics.fail"), request(2, "ping"),
        ])
        let out = lines.map { JSONValue(json: $0) }
        #expect(out[0][at: "/error/code"] == -32603)
        #expect(lines[0].contains("deliberate") == false)
        #expect(out[1]["id"] == 2)
        // That the crash is logged on stderr is the binary's to show (WorkerEndToEndTests, LifecycleTests).
    }

    @Test("progress notifications come before the response, strictly increasing, only with a token")
    func progress() async throws {
        let out = try await run(
            [
                request(1, "diagnostics.sleep", params: ["ms": 30, "steps": 3, "_meta": ["progressToken": 42]]),
                request(2, "diagnostics.sleep", params: ["ms": 3, "steps": 3]),
            ], arguments: ["--diagnostics", "--ordered"])
        let progress = out.filter { $0["method"] == "notifications/progress" }
        #expect(progress.map { $0[at: "/params/progress"] } == [1, 2, 3])
        #expect(progress.allSatisfy { $0[at: "/params/progressToken"] == 42 })
        let response = try #require(out.firstIndex { $0["id"] == 1 })
        #expect(out.lastIndex { $0["method"] == "notifications/progress" }! < response)
    }

    @Test("unknown methods → -32601; diagnostics are absent without --diagnostics")
    func diagnosticsOff() async throws {
        #expect(try await single(request(1, "diagnostics.sleep", params: ["ms": 1]))[at: "/error/code"] == -32601)
    }
}
