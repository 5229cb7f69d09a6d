import Foundation
import JSONCore
import TestSupport
import Testing

@testable import JSONRPC

/// The server fed by a pump (``InputPump``), whose thread runs the jobs and so must never wait: a chunk is answered
/// there only when nothing would wait, queued for the responder otherwise, and a full queue pauses the pump until
/// the responder takes a batch. The pump here is the test's hand: it delivers a chunk when told, as one read.
@Suite("Pumped input")
struct PumpedInputTests {
    @Test(
        "a chunk never waits: a full queue pauses the pump, and the responder taking a batch resumes it",
        .timeLimit(.minutes(1)))
    func neverWaits() async throws {
        let gates = TestMethods.Gates()
        let pump = HandPump()
        var configuration = ServerConfiguration(maxInFlight: 1)
        configuration.inputPump = pump
        let pipes = try Pipes()
        let server = RPCServer(
            registry: MethodRegistry(TestMethods.all(gates: gates)), configuration: configuration,
            input: pipes.input, output: pipes.output)
        let serving = Task { await server.run() }
        try #require(await pump.started())

        func gate(_ id: Int, _ name: String) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"test.gate","params":{"name":"\#(name)"}}"# + "\n"
        }
        // The one place in flight, taken on the pump's thread (nothing queued, the responder idle).
        #expect(pump.deliver(gate(0, "a")))
        #expect(server.queue.claims == 1)
        // Every later line needs the place: the responder takes the first and waits for it; the queue (4) fills and
        // the offer that fills it asks the pump to pause. Every delivery returned: the pump's thread never waited.
        var delivered = 0
        while delivered < 8 {
            delivered += 1
            if !pump.deliver(gate(delivered, "b")) { break }
        }
        #expect((4...5).contains(delivered), "paused once the queue was full, whether or not the responder took one")
        #expect(server.queue.stored <= server.queue.capacity)
        #expect(pump.resumes == 0)

        gates.open("a")
        // The place comes back, the responder goes on and takes a batch from the full queue: the pump resumes.
        #expect(await pump.resumed(1))
        gates.open("b")
        var resumes = 1
        for id in (delivered + 1)...(delivered + 3) where !pump.deliver(gate(id, "b")) {
            resumes += 1
            #expect(await pump.resumed(resumes))
        }
        pump.end(.endOfInput)
        let ending = await serving.value
        #expect(ending == .endOfInput)
        let ids = try pipes.answerIDs()
        #expect(ids == Set((0...(delivered + 3)).map(Int64.init)), "every request answered once")
    }

    @Test("a pump that fails to set up after it started leaves stdin to the reader thread", .timeLimit(.minutes(1)))
    func failedPumpFallsBack() async throws {
        var configuration = ServerConfiguration()
        configuration.inputPump = HandPump(failing: true)
        let pipes = try Pipes()
        let server = RPCServer(
            registry: MethodRegistry(TestMethods.all()), configuration: configuration, input: pipes.input,
            output: pipes.output)
        let serving = Task { await server.run() }
        pipes.send(#"{"jsonrpc":"2.0","id":3,"method":"test.echo"}"# + "\n")
        pipes.closeInput()
        let ending = await serving.value
        #expect(ending == .endOfInput)
        #expect(try pipes.answerIDs() == [3])
    }

    @Test(
        "a stop stops the pump's reading; serving ends as a shutdown, with the answer already made",
        .timeLimit(.minutes(1)))
    func stopStopsThePump() async throws {
        let pump = HandPump()
        var configuration = ServerConfiguration()
        configuration.inputPump = pump
        let pipes = try Pipes()
        let server = RPCServer(
            registry: MethodRegistry(TestMethods.all()), configuration: configuration, input: pipes.input,
            output: pipes.output)
        let serving = Task { await server.run() }
        try #require(await pump.started())
        #expect(pump.deliver(#"{"jsonrpc":"2.0","id":7,"method":"test.echo"}"# + "\n"))
        server.shutdown()
        let ending = await serving.value
        #expect(ending == .shutdown)
        #expect(pump.stops == 1)
        #expect(try pipes.answerIDs() == [7])
    }
}

/// A pump driven by the test (or one that fails to set up): ``deliver(_:)`` hands a chunk to the sink as the pump's
/// thread would, and returns
/// what the sink answered; resumes and stops are counted, and a stop ends the sink as a real pump's does.
private final class HandPump: InputPump, InputValve {
    private let state = Watched((sink: (any InputSink)?.none, resumes: 0, stops: 0))

    /// A pump whose setting up fails after ``start(reading:into:otherwise:)`` returned.
    private let failing: Bool

    init(failing: Bool = false) {
        self.failing = failing
    }

    func start(reading fd: Int32, into sink: any InputSink, otherwise: @escaping @Sendable () -> Void)
        -> (any InputValve)?
    {
        if failing {
            Task { otherwise() }
        } else {
            state.update { $0.sink = sink }
        }
        return self
    }

    func started() async -> Bool { await state.wait(timeout: 30) { $0.sink != nil } }
    func resumed(_ count: Int) async -> Bool { await state.wait(timeout: 30) { $0.resumes >= count } }
    var resumes: Int { state.value.resumes }
    var stops: Int { state.value.stops }

    func deliver(_ text: String) -> Bool {
        guard let sink = state.value.sink else { return false }
        return Array(text.utf8).withUnsafeBytes { sink.received($0, from: self) }
    }

    func end(_ outcome: InputReader.Outcome) {
        state.value.sink?.ended(outcome)
    }

    func resume() { state.update { $0.resumes += 1 } }

    func stop() {
        state.update { $0.stops += 1 }
        end(.stopped)
    }
}

/// The server's stdin (never read: the pump stands in for it) and stdout, and the ids of what it wrote.
private final class Pipes {
    let input: Int32
    private let inputEnd: Int32
    let output: Int32
    private let outputEnd: Int32
    private var outputClosed = false
    private var inputEndClosed = false

    init() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw POSIXError(.EMFILE) }
        (self.input, inputEnd, outputEnd, self.output) = (input[0], input[1], output[0], output[1])
    }

    deinit {
        for fd in [input, outputEnd] { close(fd) }
        if !inputEndClosed { close(inputEnd) }
        if !outputClosed { close(output) }
    }

    /// Writes to the server's stdin (for the reader thread, when no pump reads).
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
    }

    func closeInput() {
        close(inputEnd)
        inputEndClosed = true
    }

    /// The ids of every answer written (serving has ended: the server's end is closed here, then read to its end).
    func answerIDs() throws -> Set<Int64> {
        close(output)
        outputClosed = true
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(outputEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        var ids: Set<Int64> = []
        for line in bytes.split(separator: 0x0A) {
            let id = try #require(JSONParser.parse(String(decoding: line, as: UTF8.self))["id"]?.integerValue)
            #expect(ids.insert(id).inserted, "answered once: \(id)")
        }
        return ids
    }
}
