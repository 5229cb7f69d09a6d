import BoxOfficeCore
import Foundation
import JSONRPC
import NIOCore
import TestSupport
import Testing

@testable import BoxOfficeWorker

/// The worker's pump: stdin read on the HTTP client's event loop, over a real pipe (where the loop's threads have the
/// stack it needs: under a smaller `ulimit -s` the pump declines, and the reader thread reads).
@Suite("Event loop input pump", .enabled(if: EventLoopInputPump.loopStackSuffices))
struct EventLoopInputPumpTests {
    let pump = EventLoopInputPump(loop: EventLoopExecutor.shared.loop)

    @Test("reads a pipe on the loop to its end, and leaves the host's open file description blocking")
    func readsToTheEnd() async throws {
        let pipe = try PipePair()
        let sink = RecordingSink()
        let started = pump.start(reading: pipe.read, into: sink, otherwise: {})
        let valve = try #require(started)
        #expect(fcntl(pipe.read, F_GETFL) & O_NONBLOCK == 0, "the pump's own description is the non-blocking one")
        pipe.write("one\n")
        #expect(await sink.received(4))
        pipe.write("two\n")
        pipe.closeWriting()
        #expect(await sink.ended())
        #expect(sink.state.value.bytes == Array("one\ntwo\n".utf8))
        #expect(sink.state.value.outcome == "endOfInput")
        #expect(sink.state.value.onLoop, "every call on the loop")
        valve.stop()
    }

    @Test("a refused chunk stops the reading until resume; what came meanwhile waits in the pipe")
    func pausesUntilResumed() async throws {
        let (pipe, sink, valve) = try await startPaused()
        pipe.write("second\n")
        // Three turns of the loop: a read it was not asked for would have taken the bytes by now.
        try await turnTheLoop(3)
        var waiting: Int32 = 0
        #expect(ioctl(pipe.read, UInt(FIONREAD), &waiting) == 0)
        #expect(waiting == 7, "the second chunk is still in the pipe")
        #expect(sink.state.value.bytes.count == 6)
        valve.resume()
        #expect(await sink.received(13))
        valve.stop()
        #expect(await sink.ended())
        #expect(sink.state.value.outcome == "stopped")
    }

    @Test("a host that wrote and closed before the pump started: all it wrote, then the end, however NIO orders them")
    func hostGoneBeforeStart() async throws {
        for round in 0..<20 {
            let pipe = try PipePair()
            let text = "line \(round)\n"
            pipe.write(text)
            pipe.closeWriting()
            let sink = RecordingSink()
            let started = pump.start(reading: pipe.read, into: sink, otherwise: {})
            _ = try #require(started)
            #expect(await sink.ended(), "round \(round)")
            #expect(sink.state.value.bytes == Array(text.utf8))
            #expect(sink.state.value.outcome == "endOfInput")
        }
    }

    @Test("a stop asked for before the loop has set the channel up ends it all the same, and nothing is read")
    func stopBeforeSetUp() async throws {
        let pipe = try PipePair()
        let sink = RecordingSink()
        let started = pump.start(reading: pipe.read, into: sink, otherwise: {})
        let valve = try #require(started)
        valve.stop()
        pipe.write("late\n")
        #expect(await sink.ended())
        #expect(sink.state.value.outcome == "stopped")
        try await turnTheLoop(3)
        #expect(sink.state.value.bytes.isEmpty, "a stopped pump reads nothing")
    }

    @Test("a host that closes its end while the pump is paused: what NIO then reads waits for resume, then the end")
    func hostClosesWhilePaused() async throws {
        let (pipe, sink, valve) = try await startPaused()
        pipe.write("second\n")
        pipe.write("third\n")
        pipe.closeWriting()
        // The hang-up makes NIO read the rest at once; the paused sink must hear none of it yet, nor the end.
        try await turnTheLoop(5)
        #expect(sink.state.value.bytes == Array("first\n".utf8))
        #expect(sink.state.value.outcome == nil)
        valve.resume()
        #expect(await sink.ended())
        #expect(sink.state.value.bytes == Array("first\nsecond\nthird\n".utf8))
        #expect(sink.state.value.outcome == "endOfInput")
    }

    /// A pump over a new pipe whose sink took `first\n` and asked for a pause.
    private func startPaused() async throws -> (PipePair, RecordingSink, any InputValve) {
        let pipe = try PipePair()
        let sink = RecordingSink(refusing: 1)
        let started = pump.start(reading: pipe.read, into: sink, otherwise: {})
        let valve = try #require(started)
        pipe.write("first\n")
        #expect(await sink.received(6))
        return (pipe, sink, valve)
    }

    /// Waits for `turns` turns of the loop: what it was going to do by then, it has done.
    private func turnTheLoop(_ turns: Int) async throws {
        for _ in 0..<turns { try await EventLoopExecutor.shared.loop.submit {}.get() }
    }

    @Test("a regular file is not the pump's: the server's reader thread reads it")
    func regularFileIsNotPumped() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pump-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: path, contents: Data("x\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let valve = pump.start(reading: fd, into: RecordingSink(), otherwise: {})
        #expect(valve == nil)
    }
}

/// A sink that keeps what it was given, refuses more after its `refusing`-th chunk, and notes the thread.
private final class RecordingSink: InputSink {
    struct State: Sendable {
        var bytes: [UInt8] = []
        var chunks = 0
        var outcome: String?
        var onLoop = true
    }

    let state = Watched(State())
    private let refusing: Int?

    init(refusing: Int? = nil) {
        self.refusing = refusing
    }

    func received(_ bytes: UnsafeRawBufferPointer, from valve: any InputValve) -> Bool {
        let onLoop = EventLoopExecutor.shared.loop.inEventLoop
        var chunks = 0
        state.update {
            $0.bytes += bytes
            $0.chunks += 1
            $0.onLoop = $0.onLoop && onLoop
            chunks = $0.chunks
        }
        return chunks != refusing
    }

    func ended(_ outcome: InputReader.Outcome) {
        let onLoop = EventLoopExecutor.shared.loop.inEventLoop
        state.update {
            $0.outcome = "\(outcome)"
            $0.onLoop = $0.onLoop && onLoop
        }
    }

    func received(_ count: Int) async -> Bool { await state.wait(timeout: 30) { $0.bytes.count >= count } }
    func ended() async -> Bool { await state.wait(timeout: 30) { $0.outcome != nil } }
}

/// A pipe the test writes to and the pump reads.
private final class PipePair {
    let read: Int32
    private let writing: Int32
    private var writingClosed = false

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        (read, writing) = (ends[0], ends[1])
    }

    deinit {
        close(read)
        if !writingClosed { close(writing) }
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(writing, $0.baseAddress, $0.count) }
    }

    func closeWriting() {
        close(writing)
        writingClosed = true
    }
}
