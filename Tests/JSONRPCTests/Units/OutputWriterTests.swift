import CGlibcGNU
import Foundation
import NIOConcurrencyHelpers
import Synchronization
import TestSupport
import Testing

@testable import JSONRPC

/// The writer thread against real pipes: a full non-blocking pipe (partial writes and `EAGAIN`), and a pipe whose
/// reader is gone (`EPIPE`).
@Suite("Output writer")
struct OutputWriterTests {
    /// A pipe whose write end is non-blocking and small, so writes come back partial and then with `EAGAIN`.
    private static func smallNonBlockingPipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        _ = fcntl(ends[1], 1031 /* F_SETPIPE_SZ */, 4096)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    /// A host reading `fd` on a thread of its own until end of file, `chunk` bytes at a time with `pause` µs
    /// between reads; the thread (started) and what it read.
    private static func startReading(
        _ fd: Int32, chunk: Int, pause: useconds_t = 0
    ) -> (thread: Thread, received: NIOLockedValueBox<[UInt8]>) {
        let received = NIOLockedValueBox<[UInt8]>([])
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: chunk)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                received.withLockedValue { $0 += buffer[..<count] }
                if pause > 0 { usleep(pause) }  // sleep-ok: a host that reads slowly
            }
        }
        thread.start()
        return (thread, received)
    }

    @Test("lines handed over faster than the host reads arrive whole and in order (partial writes, EAGAIN)")
    func partialWritesAndEAGAIN() async throws {
        signal(SIGPIPE, SIG_IGN)
        let (readEnd, writeEnd) = Self.smallNonBlockingPipe()
        defer { close(readEnd) }
        let writer = OutputWriter(fd: writeEnd)
        var expected: [UInt8] = []
        for index in 0..<2000 {
            // Lines of varied length, some longer than the pipe's 4 KiB, so most writes are partial.
            let line = Array("{\"id\":\(index),\"pad\":\"\(String(repeating: "x", count: index % 7 * 1500))\"}\n".utf8)
            expected += line
            writer.write(lines: line)
        }
        // The host reads slowly, in small pieces, while the writer waits on a full pipe.
        let (_, received) = Self.startReading(readEnd, chunk: 1000, pause: 50)
        await writer.finish()
        close(writeEnd)
        #expect(await eventually { received.withLockedValue { $0.count } >= expected.count })
        #expect(received.withLockedValue { $0 } == expected)
        #expect(!writer.hostGone.isFired)
    }

    @Test("a task's lines never wait on a full blocking pipe: what fits is written, the rest waits for the writer")
    func tasksNeverWaitOnAFullPipe() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
        // The pipe (blocking, as a host's usually is) is full before the writer is made.
        let filler = [UInt8](repeating: UInt8(ascii: "f"), count: 4095) + [0x0A]
        #expect(filler.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } == filler.count)
        let writer = OutputWriter(fd: writeEnd)
        var expected = filler
        let handed = Task {
            var lines: [UInt8] = []
            for index in 0..<300 {
                let pad = String(repeating: "p", count: index % 5 * 700)
                let line = Array("{\"id\":\(index),\"pad\":\"\(pad)\"}\n".utf8)
                lines += line
                writer.write(lines: line)
            }
            return lines
        }
        // Every call returned while nobody read: a write that waited for room would hold the task here for ever.
        expected += await handed.value
        let (readerThread, received) = Self.startReading(readEnd, chunk: 3000)
        await writer.finish()
        close(writeEnd)
        #expect(await eventually { readerThread.isFinished })
        close(readEnd)
        #expect(received.withLockedValue { $0 } == expected, "whole, in order, nothing lost or doubled")
    }

    @Test("a task's lines go out on its own thread where the kernel has writes that do not wait, else the writer's")
    func writtenHereWhenTheKernelCan() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Whether this kernel takes RWF_NOWAIT on a pipe (Linux 6.4 and later do; older ones refuse it with EOPNOTSUPP).
        let probe: [UInt8] = [0x0A]
        let kernelCan = probe.withUnsafeBytes { cg_write_without_waiting(writeEnd, $0.baseAddress, 1) } == 1
        var scratch: [UInt8] = [0]
        if kernelCan { #expect(read(readEnd, &scratch, 1) == 1) }
        let writer = OutputWriter(fd: writeEnd)
        let lines = (0..<50).map { Array("{\"id\":\($0)}\n".utf8) }
        await Task { for line in lines { writer.write(lines: line) } }.value
        await writer.finish()
        close(writeEnd)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(readEnd, &buffer, buffer.count), count > 0 { received += buffer[..<count] }
        close(readEnd)
        #expect(received == lines.flatMap { $0 })
        if kernelCan {
            #expect(writer.bytesWrittenHere.load(ordering: .relaxed) == received.count, "every line written here")
            #expect(writer.writesHere)
        } else {
            #expect(!writer.writesHere, "turned off after the first refusal")
        }
    }

    @Test("EPIPE: the host-gone signal fires once, and everything later is dropped without blocking")
    func hostGone() async {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let writer = OutputWriter(fd: ends[1])
        writer.write(lines: Array("{\"id\":1}\n".utf8))
        await writer.hostGone.wait()
        #expect(writer.hostGone.isFired)
        writer.write(lines: Array("{\"id\":2}\n".utf8))
        writer.waitForRoom()
        #expect(writer.pendingBytes == 0)
        await writer.finish()
        close(ends[1])
    }

    @Test("waitForRoom blocks while more than the high-water mark waits, and returns once the host reads")
    func backpressure() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        _ = fcntl(ends[1], 1031 /* F_SETPIPE_SZ */, 4096)
        let writer = OutputWriter(fd: ends[1], highWaterBytes: 8192)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 4095) + [0x0A]
        for _ in 0..<8 { writer.write(lines: chunk) }
        let returned = Atomic<Bool>(false)
        let waiter = Thread {
            writer.waitForRoom()
            returned.store(true, ordering: .releasing)
        }
        waiter.start()
        #expect(await eventually { writer.held == 1 }, "waitForRoom never held its caller")
        let returnedNow = returned.load(ordering: .acquiring)
        #expect(!returnedNow, "returned while the host read nothing")
        var buffer = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while total < chunk.count * 8 {
            let count = read(ends[0], &buffer, buffer.count)
            #expect(count > 0)
            total += max(0, count)
        }
        await writer.finish()
        // The waiter thread stores `returned` after waitForRoom gives it back: under load (ThreadSanitizer, a busy
        // machine) it may not have run yet when finish() does, so the test waits for the store, not a moment.
        #expect(await eventually { returned.load(ordering: .acquiring) }, "waitForRoom never returned")
        close(ends[0])
        close(ends[1])
    }

    @Test("direct writes of the responder thread and queued writes of tasks never interleave within a line")
    func directAndQueued() async throws {
        var pair: [Int32] = [0, 0]
        #expect(pipe(&pair) == 0)
        let (readEnd, writeEnd) = (pair[0], pair[1])
        let writer = OutputWriter(fd: writeEnd)
        let (readerThread, received) = Self.startReading(readEnd, chunk: 8192)
        let responder = Thread {
            for index in 0..<2000 {
                writer.writeNow(lines: Array("now-\(index)-\(String(repeating: "n", count: index % 300))\n".utf8))
            }
        }
        responder.start()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<500 {
                        writer.write(
                            lines: Array("task\(task)-\(index)-\(String(repeating: "t", count: index % 500))\n".utf8))
                    }
                }
            }
        }
        #expect(await eventually { responder.isFinished })
        await writer.finish()
        close(writeEnd)
        #expect(await eventually { readerThread.isFinished })
        close(readEnd)
        let lines = String(decoding: received.withLockedValue { $0 }, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4000)
        let now = lines.filter { $0.hasPrefix("now-") }
        #expect(now.map { Int($0.split(separator: "-")[1])! } == Array(0..<2000), "the responder's own order is kept")
        for line in lines {
            let parts = line.split(separator: "-")
            let index = Int(parts[1])!
            let padding = parts.count > 2 ? parts[2] : ""
            let expected = line.hasPrefix("now-") ? index % 300 : index % 500
            #expect(padding.count == expected, "a line was cut or mixed: \(line.prefix(80))")
        }
    }
}
