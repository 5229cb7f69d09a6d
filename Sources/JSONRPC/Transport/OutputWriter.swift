import CGlibcGNU
import FoundationEssentials
import Glibc
import Synchronization

/// The one writer of the protocol stream: whole lines, in the order they are handed over, never interleaved.
///
/// Tasks hand lines over with ``write(lines:)``, which never waits on the pipe, so no task (nor the event loop the
/// jobs run on) ever blocks on a host that reads slowly. When the writer is idle the lines are written there and
/// then with a write that does not wait for room (`pwritev2` with `RWF_NOWAIT`): whatever the pipe takes now, the
/// rest queued; otherwise, and where the descriptor or the kernel has no such write, they are only queued. Why: the
/// hop to the writer thread was a futex wake-up and two context switches on every answer (issue 43), for a pipe
/// that nearly always has room. A thread of its own takes everything queued and writes it with as few `write(2)`
/// calls as it can (a burst of answers becomes one call), waiting with `poll(2)` when the descriptor is
/// non-blocking and full. The responder thread, which may block, writes its own answers directly when the writer
/// is idle (``writeNow(lines:)``).
///
/// Backpressure is the responder's business: the responder thread calls ``waitForRoom()`` before taking more input
/// (the bounded line queue then fills and the reader thread waits, or a pump stops reading; a pump's thread never
/// waits here, and answers a chunk itself only while ``hasRoom``), so a host that stops reading stops the worker
/// reading, and the queue stays near ``highWaterBytes``.
/// On `EPIPE` (the host closed stdout) everything queued and everything later is dropped and ``hostGone`` fires,
/// once; the server turns that into its orderly shutdown.
///
/// ``inMemory()`` makes a writer with no descriptor and no thread that keeps the lines (``lines``), for serving in
/// process (``RPCServer/answers(to:registry:configuration:)``).
///
/// The queue's decisions are ``StateMachine``'s; this class holds the descriptor, the thread and the condition
/// variable, and does the writing, waiting and waking that a transition returns.
///
/// `@unchecked`: `machine` and `heldForRoom` are read and written only while `condition` is locked; the other
/// stored properties are immutable and Sendable.
package final class OutputWriter: @unchecked Sendable {
    /// The descriptor written to; `nil` keeps the lines in memory instead.
    private let fd: Int32?
    private let condition = Condition()
    private var machine: StateMachine<CheckedContinuation<Void, Never>>
    /// Threads blocked in ``waitForRoom()`` now.
    private var heldForRoom = 0
    /// Bytes that may wait in memory (queued, or in the `write(2)` under way) before ``waitForRoom()`` blocks.
    package let highWaterBytes: Int
    /// Fires once when a write fails for good (`EPIPE`: the host closed its end).
    let hostGone = CancellationSignal()
    /// Whether ``write(lines:)`` may write on the caller's thread (a write that does not wait); off for good once the
    /// descriptor or the kernel refuses such a write.
    private let writesWithoutWaiting = Atomic<Bool>(true)
    /// Bytes ``write(lines:)`` wrote on its caller's thread (for tests: which path the lines took).
    let bytesWrittenHere = Atomic<Int>(0)

    /// Whether ``write(lines:)`` still writes on its caller's thread when it can.
    var writesHere: Bool { writesWithoutWaiting.load(ordering: .relaxed) }

    package init(fd: Int32, highWaterBytes: Int = 4 << 20) {
        self.fd = fd
        self.highWaterBytes = highWaterBytes
        machine = StateMachine(highWaterBytes: highWaterBytes)
        DetachedThread.start(name: "protocol-writer") { [self] in writeLoop() }
    }

    private init() {
        fd = nil
        highWaterBytes = .max
        machine = .inMemory()
    }

    /// A writer that keeps every line in memory: no descriptor, no thread, never full, never gone.
    package static func inMemory() -> OutputWriter { OutputWriter() }

    /// Everything an ``inMemory()`` writer was handed, in order.
    package var lines: [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return machine.collected
    }

    /// Hands over whole protocol lines: `bytes` is one or more lines, each ending in a newline. Never blocks: written
    /// here as far as the pipe has room when the writer is idle, the rest (or all of it) queued for the writer thread.
    package func write(lines bytes: [UInt8]) {
        let here = fd != nil && writesWithoutWaiting.load(ordering: .relaxed)
        condition.lock()
        let action = here ? machine.writeNow(bytes) : machine.queue(bytes)
        condition.unlock()
        perform(action) { batch in
            let outcome = writeWithoutWaiting(batch)
            bytesWrittenHere.add(outcome.written, ordering: .relaxed)
            return outcome
        }
    }

    /// Writes whole protocol lines from a thread that may block (the responder thread, never a task): with
    /// `write(2)` on this thread when nothing else is queued or being written, which saves the hop to the writer
    /// thread on the answers that need no work (`ping`, a kept answer); otherwise queued like ``write(lines:)``.
    package func writeNow(lines bytes: [UInt8]) {
        condition.lock()
        let action = machine.writeNow(bytes)
        condition.unlock()
        perform(action) { batch in
            let delivered = writeFully(batch)
            return (delivered ? batch.count : 0, delivered)
        }
    }

    /// Does what a hand-over returned: nothing, wake the writer thread, or write here with `write` (how far it got,
    /// and whether the host is still there) and report the end. The writer thread is woken after a write here only
    /// for the rest of the batch or what was queued meanwhile, or to end (host gone, writer closed), and so is a
    /// responder held for room: waking it after every answer cost a futex call and two context switches for
    /// nothing.
    private func perform(
        _ action: StateMachine<CheckedContinuation<Void, Never>>.WriteAction,
        writingWith write: ([UInt8]) -> (written: Int, delivered: Bool)
    ) {
        switch action {
        case .none:
            break
        case .wakeWriter:
            condition.broadcast()
        case .writeHere(let batch):
            let (written, delivered) = write(batch)
            condition.lock()
            let wake = machine.writeEnded(delivered: delivered, unwritten: batch[written...]) || heldForRoom > 0
            condition.unlock()
            if wake { condition.broadcast() }
            if !delivered { hostGone.fire(byShutdown: true) }
        }
    }

    /// Blocks the calling thread while more than ``highWaterBytes`` wait to be written (the host is not reading).
    ///
    /// - Important: For the thread answering lines only (the responder, or the reader answering a chunk itself),
    ///   never a task: it is how backpressure on output reaches stdin.
    package func waitForRoom() {
        condition.lock()
        while machine.mustWaitForRoom {
            heldForRoom += 1
            condition.wait()
            heldForRoom -= 1
        }
        condition.unlock()
    }

    /// Whether ``waitForRoom()`` would return at once now (for a thread that must not wait: the event loop reading
    /// stdin answers a chunk itself only then).
    package var hasRoom: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !machine.mustWaitForRoom
    }

    /// Threads ``waitForRoom()`` holds now (for tests: a test waits for this state instead of guessing its time).
    var held: Int {
        condition.lock()
        defer { condition.unlock() }
        return heldForRoom
    }

    /// Bytes handed over and not yet written.
    package var pendingBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return machine.pendingBytes
    }

    /// Takes no more lines, and returns when everything handed over has been written (or the host is gone) and
    /// the writer thread has ended.
    package func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            let action = machine.finish(continuation)
            condition.unlock()
            switch action {
            case .resume(let waiter): waiter.resume()
            case .wakeWriter: condition.broadcast()
            }
        }
    }

    /// The writer thread's whole life. A ``finish()`` that arrives after it ended returns at once.
    private func writeLoop() {
        condition.lock()
        while true {
            switch machine.nextWriterStep() {
            case .wait:
                condition.wait()
            case .write(let batch):
                condition.unlock()
                let delivered = writeFully(batch)
                condition.lock()
                machine.writeEnded(delivered: delivered)
                condition.broadcast()
            case .end(let waiters, let gone):
                condition.unlock()
                condition.broadcast()
                if gone { hostGone.fire(byShutdown: true) }
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    /// Writes `bytes` as far as the descriptor takes them without waiting: the count written, and false when the
    /// host is gone (`EPIPE`). No room (`EAGAIN`) ends it early; any other error ends it too and turns such writes
    /// off, so the rest and later lines go to the writer thread alone.
    private func writeWithoutWaiting(_ bytes: [UInt8]) -> (written: Int, delivered: Bool) {
        guard let fd else { return (bytes.count, true) }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = cg_write_without_waiting(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if result > 0 {
                    offset += result
                    continue
                }
                if result == 0 { return (offset, true) }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:
                    return (offset, true)
                case EPIPE:
                    return (offset, false)
                default:
                    // No such write here (EOPNOTSUPP, EINVAL, ENOSYS, a filter's EPERM, …): the writer thread's
                    // plain write(2) takes the rest, and says whether the descriptor is really gone.
                    writesWithoutWaiting.store(false, ordering: .relaxed)
                    return (offset, true)
                }
            }
            return (offset, true)
        }
    }

    /// `write(2)` until done; false on `EPIPE` or another unrecoverable error. `EAGAIN` (a descriptor the host made
    /// non-blocking) waits for room with `poll(2)`; partial writes continue where they stopped.
    private func writeFully(_ bytes: [UInt8]) -> Bool {
        guard let fd else { return true }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if result >= 0 {
                    offset += result
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:
                    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                default:
                    return false
                }
            }
            return true
        }
    }
}
