import Testing

@testable import JSONRPC

/// The output writer's queue driven with plain values, no descriptor and no thread: the test plays both the writer
/// thread (``OutputWriter/StateMachine/nextWriterStep()``) and the callers. A finish waiter is an `Int`.
@Suite("Output writer state machine")
struct OutputWriterStateMachineTests {
    typealias Machine = OutputWriter.StateMachine<Int>

    static let line: [UInt8] = Array("{}\n".utf8)

    /// The batch of a `.write` step; nil for any other step.
    private static func batch(_ step: Machine.WriterStep) -> [UInt8]? {
        guard case .write(let bytes) = step else { return nil }
        return bytes
    }

    /// The finish waiters and the host-gone flag of an `.end` step; nil for any other step.
    private static func end(_ step: Machine.WriterStep) -> (waiters: [Int], hostGone: Bool)? {
        guard case .end(let waiters, let hostGone) = step else { return nil }
        return (waiters, hostGone)
    }

    /// Whether the step tells the writer thread to wait.
    private static func waits(_ step: Machine.WriterStep) -> Bool {
        if case .wait = step { return true }
        return false
    }

    @Test("an idle writer thread waits; the first queued lines wake it, later ones join the same batch")
    func queueAndBatch() {
        var machine = Machine(highWaterBytes: 100)
        let idle = Self.waits(machine.nextWriterStep())
        let first = machine.queue(Self.line)
        let second = machine.queue(Self.line)
        let step = Self.batch(machine.nextWriterStep())
        let duringWrite = Self.waits(machine.nextWriterStep())
        machine.writeEnded(delivered: true)
        #expect(idle)
        #expect(first == .wakeWriter)
        #expect(second == Machine.WriteAction.none)
        #expect(step == Self.line + Self.line, "a burst is one write")
        #expect(duringWrite)
        #expect(machine.pendingBytes == 0)
    }

    @Test("a direct write happens only when nothing is queued or being written; otherwise it is queued")
    func directWrite() {
        var machine = Machine(highWaterBytes: 100)
        let here = machine.writeNow(Self.line)
        let meanwhile = machine.writeNow(Self.line)
        let writerWaits = Self.waits(machine.nextWriterStep())
        machine.writeEnded(delivered: true)
        let queued = Self.batch(machine.nextWriterStep())
        #expect(here == .writeHere(Self.line))
        #expect(meanwhile == Machine.WriteAction.none, "queued: the direct write under way wakes the writer at its end")
        #expect(writerWaits, "the writer thread waits for the direct write, never writes beside it")
        #expect(queued == Self.line)
    }

    @Test("after a write on a caller's thread the writer thread is woken only when it has something to do")
    func wakesOnlyWhenNeeded() {
        var machine = Machine(highWaterBytes: 100)
        _ = machine.writeNow(Self.line)
        let whole = machine.writeEnded(delivered: true)
        _ = machine.writeNow(Self.line)
        _ = machine.queue(Self.line)
        let queuedMeanwhile = machine.writeEnded(delivered: true)
        _ = machine.nextWriterStep()
        machine.writeEnded(delivered: true)
        _ = machine.writeNow(Self.line)
        let partial = machine.writeEnded(delivered: true, unwritten: Self.line[1...])
        _ = machine.nextWriterStep()
        machine.writeEnded(delivered: true)
        _ = machine.writeNow(Self.line)
        _ = machine.finish(1)
        let closedMeanwhile = machine.writeEnded(delivered: true)
        var failing = Machine(highWaterBytes: 100)
        _ = failing.writeNow(Self.line)
        let failed = failing.writeEnded(delivered: false)
        #expect(!whole, "an answer written whole, nothing queued: no wake-up")
        #expect(queuedMeanwhile, "lines queued meanwhile")
        #expect(partial, "the end of the line is queued")
        #expect(closedMeanwhile, "closed meanwhile: the writer thread must end")
        #expect(failed, "the host is gone: the writer thread must end")
    }

    @Test("a write that found no room for its end: the end goes first, before lines handed over meanwhile")
    func unwrittenEndGoesFirst() {
        var machine = Machine(highWaterBytes: 100)
        let batch = Array("{\"id\":1}\n{\"id\":2}\n".utf8)
        guard case .writeHere(let here) = machine.writeNow(batch) else {
            Issue.record("an idle writer writes here")
            return
        }
        let meanwhile = Array("{\"id\":3}\n".utf8)
        _ = machine.writeNow(meanwhile)
        #expect(machine.pendingBytes == batch.count + meanwhile.count, "the write under way counts until it ends")
        // The pipe took the first line and four bytes of the second.
        machine.writeEnded(delivered: true, unwritten: here[13...])
        #expect(machine.pendingBytes == batch.count - 13 + meanwhile.count)
        #expect(Self.batch(machine.nextWriterStep()) == Array(batch[13...]) + meanwhile)
        machine.writeEnded(delivered: true)
        #expect(Self.waits(machine.nextWriterStep()))
        // A failed write drops its end with everything queued.
        _ = machine.writeNow(batch)
        _ = machine.writeNow(meanwhile)
        machine.writeEnded(delivered: false, unwritten: batch[5...])
        #expect(machine.pendingBytes == 0 && machine.isHostGone)
    }

    @Test("backpressure counts the write under way; a gone host or an ended writer never holds the reader")
    func room() {
        var machine = Machine(highWaterBytes: 4)
        _ = machine.queue(Self.line + Self.line)
        let full = machine.mustWaitForRoom
        _ = machine.nextWriterStep()
        let fullWhileWriting = machine.mustWaitForRoom
        machine.writeEnded(delivered: false)
        #expect(full)
        #expect(fullWhileWriting, "the batch being written is still unwritten")
        #expect(!machine.mustWaitForRoom)
        #expect(machine.isHostGone)
    }

    @Test("a failed write drops what is queued and everything later, and ends the writer thread saying so")
    func hostGone() {
        var machine = Machine(highWaterBytes: 100)
        _ = machine.queue(Self.line)
        _ = machine.nextWriterStep()
        _ = machine.queue(Self.line)
        machine.writeEnded(delivered: false)
        let later = machine.queue(Self.line)
        let direct = machine.writeNow(Self.line)
        let finished = machine.finish(1)
        let end = Self.end(machine.nextWriterStep())
        let late = machine.finish(2)
        #expect(later == Machine.WriteAction.none && direct == Machine.WriteAction.none)
        #expect(machine.pendingBytes == 0)
        #expect(finished == .wakeWriter)
        #expect(end?.waiters == [1] && end?.hostGone == true)
        #expect(late == .resume(2), "a finish after the writer thread ended returns at once")
    }

    @Test("finish writes what is queued first, then ends the thread and resumes every finish once")
    func finishDrains() {
        var machine = Machine(highWaterBytes: 100)
        _ = machine.queue(Self.line)
        let finished = machine.finish(1)
        let refused = machine.queue(Self.line)
        let step = Self.batch(machine.nextWriterStep())
        machine.writeEnded(delivered: true)
        let end = Self.end(machine.nextWriterStep())
        #expect(finished == .wakeWriter)
        #expect(refused == Machine.WriteAction.none, "a closed writer takes no more lines")
        #expect(step == Self.line)
        #expect(end?.waiters == [1] && end?.hostGone == false)
    }

    @Test("an in-memory writer keeps every line, never holds the reader, and finishes at once")
    func inMemory() {
        var machine = Machine.inMemory()
        let queued = machine.queue(Self.line)
        let direct = machine.writeNow(Self.line)
        let finished = machine.finish(1)
        let afterFinish = machine.queue(Self.line)
        #expect(queued == Machine.WriteAction.none && direct == Machine.WriteAction.none)
        #expect(machine.collected == Self.line + Self.line)
        #expect(!machine.mustWaitForRoom)
        #expect(finished == .resume(1))
        #expect(afterFinish == Machine.WriteAction.none && machine.collected.count == 2 * Self.line.count)
    }
}
