import Foundation

/// The one writer of the protocol stream: whole lines, in the order they are handed over, never interleaved.
///
/// Tasks hand lines over with ``write(lines:)``, which only appends them to a queue: no task ever makes a system
/// call or waits on the pipe, so Swift's cooperative pool never blocks on a host that reads slowly, and no lock that
/// other tasks need is held across a `write(2)`. A thread of its own takes everything queued and writes it with as
/// few `write(2)` calls as it can (a burst of answers becomes one call), waiting with `poll(2)` when the descriptor
/// is non-blocking and full. The responder thread, which may block, writes its own answers directly when the writer
/// is idle (``writeNow(lines:)``).
///
/// Backpressure is the reader's business: the responder thread calls ``waitForRoom()`` before taking more input, so
/// a host that stops reading stops the worker reading, and the queue stays near ``highWaterBytes``.
/// On `EPIPE` (the host closed stdout) everything queued and everything later is dropped and ``hostGone`` fires,
/// once; the server turns that into its orderly shutdown.
///
/// ``inMemory()`` makes a writer with no descriptor and no thread that keeps the lines (``collected``), for serving in
/// process (``RPCServer/answers(to:registry:configuration:)``).
package final class OutputWriter: @unchecked Sendable {
    // @unchecked: every stored var is read and written only while `condition` is locked; `fd` is immutable.
    /// The descriptor written to; `nil` keeps the lines in `collected` instead.
    private let fd: Int32?
    private var collected: [UInt8] = []
    private let condition = NSCondition()
    private var queued: [UInt8] = []
    private var writing = false
    /// The size of the batch the writer thread is writing now: still unwritten as far as backpressure goes.
    private var inWrite = 0
    private var closed = false
    private var done = false
    private var isHostGone = false
    /// Threads blocked in ``waitForRoom()`` now.
    private var heldForRoom = 0
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    /// Bytes that may wait in memory (queued, or in the `write(2)` under way) before ``waitForRoom()`` blocks.
    package let highWaterBytes: Int
    /// Fires once when a write fails for good (`EPIPE`: the host closed its end).
    let hostGone = CancellationSignal()

    package init(fd: Int32, highWaterBytes: Int = 4 << 20) {
        self.fd = fd
        self.highWaterBytes = highWaterBytes
        let thread = Thread { [self] in writeLoop() }
        thread.name = "protocol-writer"
        thread.start()
    }

    private init() {
        fd = nil
        highWaterBytes = .max
        done = true
    }

    /// A writer that keeps every line in memory: no descriptor, no thread, never full, never gone.
    package static func inMemory() -> OutputWriter { OutputWriter() }

    /// Everything an ``inMemory()`` writer was handed, in order.
    package var lines: [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return collected
    }

    /// Queues whole protocol lines: `bytes` is one or more lines, each ending in a newline. Never blocks.
    package func write(lines bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        condition.lock()
        guard !isHostGone, !closed else {
            condition.unlock()
            return
        }
        guard fd != nil else {
            collected.append(contentsOf: bytes)
            condition.unlock()
            return
        }
        let wake = queued.isEmpty && !writing
        queued.append(contentsOf: bytes)
        condition.unlock()
        if wake { condition.broadcast() }
    }

    /// Writes whole protocol lines from a thread that may block (the responder thread, never a task): with
    /// `write(2)` on this thread when nothing else is queued or being written, which saves the hop to the writer
    /// thread on the answers that need no work (`ping`, a kept answer); otherwise queued like ``write(lines:)``.
    package func writeNow(lines bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        condition.lock()
        guard !isHostGone, !closed else {
            condition.unlock()
            return
        }
        guard fd != nil else {
            collected.append(contentsOf: bytes)
            condition.unlock()
            return
        }
        guard queued.isEmpty, !writing else {
            queued.append(contentsOf: bytes)
            condition.unlock()
            condition.broadcast()
            return
        }
        let delivered = writeUnlocked(bytes)
        condition.unlock()
        // Wakes the writer thread for what was queued meanwhile (or, when the host is gone, so it ends).
        condition.broadcast()
        if !delivered { hostGone.fire(byShutdown: true) }
    }

    /// Writes `batch` with the lock released (marked as the write under way meanwhile), and takes the lock back.
    /// On failure the host is gone: what is queued is dropped. Call with `condition` locked.
    private func writeUnlocked(_ batch: [UInt8]) -> Bool {
        writing = true
        inWrite = batch.count
        condition.unlock()
        let delivered = writeFully(batch)
        condition.lock()
        writing = false
        inWrite = 0
        if !delivered {
            isHostGone = true
            queued = []
        }
        return delivered
    }

    /// Blocks the calling thread while more than ``highWaterBytes`` wait to be written (the host is not reading).
    ///
    /// - Important: For the responder thread only, never a task: it is how backpressure on output reaches stdin.
    package func waitForRoom() {
        condition.lock()
        while queued.count + inWrite > highWaterBytes && !isHostGone && !done {
            heldForRoom += 1
            condition.wait()
            heldForRoom -= 1
        }
        condition.unlock()
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
        return queued.count + inWrite
    }

    /// Takes no more lines, and returns when everything handed over has been written (or the host is gone) and
    /// the writer thread has ended.
    package func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            closed = true
            if done {
                condition.unlock()
                continuation.resume()
                return
            }
            finishWaiters.append(continuation)
            condition.unlock()
            condition.broadcast()
        }
    }

    /// The writer thread's whole life.
    private func writeLoop() {
        condition.lock()
        while true {
            // A direct write of the responder thread (``writeNow(lines:)``) is waited for even at close.
            while !isHostGone && (writing || (queued.isEmpty && !closed)) {
                condition.wait()
            }
            if queued.isEmpty || isHostGone { break }
            let batch = queued
            queued = []
            let delivered = writeUnlocked(batch)
            condition.broadcast()
            if !delivered { break }
        }
        done = true
        let waiters = finishWaiters
        finishWaiters = []
        let gone = isHostGone
        condition.unlock()
        condition.broadcast()
        if gone { hostGone.fire(byShutdown: true) }
        for waiter in waiters { waiter.resume() }
        // A finish() that arrives after the loop ended finds `done` set and returns at once.
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
