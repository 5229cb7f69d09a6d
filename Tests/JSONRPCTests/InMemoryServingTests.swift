import Foundation
import JSONCore
import JSONRPC
import TestSupport
import Testing

/// ``RPCServer/answers(to:registry:configuration:)`` is the fuzz target's way into the line handler; it must answer
/// exactly as the threaded server does, or the fuzzing proves nothing about the worker.
@Suite("RPCServer in memory")
struct InMemoryServingTests {
    /// Every kind of line: calls with and without work, errors of every stage, batches, notifications, cancellation,
    /// duplicate ids, progress, a blank line, an over-long line, and a last line with no newline.
    static let input: [UInt8] = Array(
        [
            request(1, "test.echo", params: ["a": 1]), "", "{bad", "[]", "[1,2]", #"{"jsonrpc":"2.0","id":2}"#,
            request(3, "nope"), request(4, "test.sleep", params: ["ms": "x"]),
            request(5, "test.sleep", params: ["ms": 200, "steps": 2, "_meta": ["progressToken": "p5"]]),
            request(5, "test.echo"), request(6, "test.crash"), request(7, "test.reject"),
            #"[{"jsonrpc":"2.0","id":8,"method":"test.echo"},{"jsonrpc":"2.0","method":"test.echo"},{"jsonrpc":"2.0","id":9,"method":"test.sleep","params":{"ms":1}}]"#,
            request(nil, "test.sleep", params: ["ms": 1]), request(10, "test.sleep", params: ["ms": 5000]),
            #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":10}}"#,
            String(repeating: "x", count: 300), #"{"jsonrpc":"2.0","id":11,"method":"test.echo"}"#,
        ].joined(separator: "\n").utf8)

    @Test("the same lines, in the same order, as the threaded server (ordered mode)")
    func sameAsThreaded() async throws {
        var server = InProcessServer(methods: TestMethods.all())
        server.configuration = ServerConfiguration(ordered: true, maxLineBytes: 256)
        let threaded = try await server.transcript(bytes: Self.input)
        let configuration = server.configuration
        let inMemory = await onThread {
            RPCServer.answers(
                to: Self.input, registry: MethodRegistry(TestMethods.all()), configuration: configuration)
        }
        let lines = String(decoding: inMemory, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == threaded)
        // The case list above reaches every stage: parse, classification, method, params, duplicate, handler.
        let codes = Set(lines.compactMap { try? JSONParser.parse($0)[at: "/error/code"]?.integerValue })
        #expect(codes.isSuperset(of: [-32700, -32600, -32601, -32602, -32603, -32800, -31004]))
        #expect(lines.contains { $0.contains(#""progressToken":"p5""#) })
        #expect(lines.last?.contains(#""id":11"#) == true)
    }

    @Test("unordered, every request is answered once and the work's answers follow the ready ones")
    func unordered() async {
        let output = await onThread {
            RPCServer.answers(
                to: Self.input, registry: MethodRegistry(TestMethods.all()),
                configuration: ServerConfiguration(maxInFlight: 1, maxLineBytes: 256))
        }
        let answers = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONParser.parse(String($0))
        }
        let ids = answers.flatMap { $0.arrayValue ?? [$0] }.compactMap { $0[at: "/id"]?.integerValue }
        #expect(ids.sorted() == [1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11])
        #expect(answers.first?[at: "/id"] == 1)
    }

    /// The in-memory path blocks its thread while the work runs in tasks, so it gets a thread of its own.
    private func onThread(_ body: @escaping @Sendable () -> [UInt8]) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 16 << 20
            thread.start()
        }
    }
}
