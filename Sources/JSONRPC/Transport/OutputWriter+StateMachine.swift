extension OutputWriter {
    /// The writer's queue and its states (writing, closed, done, host gone) without a descriptor, a thread or a
    /// condition variable. ``OutputWriter`` runs each transition with its condition locked and does what it returns
    /// (write, wake the writer thread, resume ``OutputWriter/finish()``) around it, so "a direct write only when
    /// idle", "nothing queued once the host is gone" and "finish waits for the writer thread" are tested with plain
    /// values (`Waiter` is an `Int` there, a continuation in the shell).
    struct StateMachine<Waiter: Sendable>: Sendable {
        /// What a caller handing lines over does next.
        enum WriteAction: Equatable {
            /// Nothing: the lines were dropped (host gone, writer closed), kept in memory, or queued for a writer
            /// thread that is already awake.
            case none
            /// Wake the writer thread: there is something queued for it.
            case wakeWriter
            /// Write these bytes on the calling thread, with the lock released; then report
            /// ``writeEnded(delivered:unwritten:)``.
            case writeHere([UInt8])
        }

        /// What the writer thread does next.
        enum WriterStep {
            /// Wait on the condition.
            case wait
            /// Write this batch with the lock released; then report ``writeEnded(delivered:unwritten:)``.
            case write([UInt8])
            /// End the thread: resume these ``OutputWriter/finish()`` callers, and fire `hostGone` when it is.
            case end(resume: [Waiter], hostGone: Bool)
        }

        /// What ``OutputWriter/finish()`` does next.
        enum FinishAction {
            /// The writer thread has ended: return now.
            case resume(Waiter)
            /// The caller is kept until the writer thread ends; wake it so it sees the close.
            case wakeWriter
        }

        /// Bytes that may wait (queued, or in the write under way) before ``mustWaitForRoom`` holds the responder.
        let highWaterBytes: Int
        /// Whether lines are kept in ``collected`` instead of written (an in-memory writer).
        private let keepsLines: Bool
        private(set) var collected: [UInt8] = []
        private var queued: [UInt8] = []
        private var writing = false
        /// The size of the batch being written now: still unwritten as far as backpressure goes.
        private var inWrite = 0
        private var closed = false
        /// The writer thread has ended (or there is none).
        private var done: Bool
        private(set) var isHostGone = false
        private var finishWaiters: [Waiter] = []

        /// A writer with a writer thread.
        init(highWaterBytes: Int) {
            self.init(highWaterBytes: highWaterBytes, keepsLines: false)
        }

        /// A writer that keeps every line in memory: no thread, never full.
        static func inMemory() -> Self { Self(highWaterBytes: .max, keepsLines: true) }

        private init(highWaterBytes: Int, keepsLines: Bool) {
            self.highWaterBytes = highWaterBytes
            self.keepsLines = keepsLines
            // An in-memory writer has no thread to wait for.
            done = keepsLines
        }

        /// Bytes handed over and not yet written.
        var pendingBytes: Int { queued.count + inWrite }

        /// Whether a reader asking for room must wait now.
        var mustWaitForRoom: Bool { pendingBytes > highWaterBytes && !isHostGone && !done }

        /// Lines queued for the writer thread, never written here: a task's when writes that do not wait are off
        /// (or the writer keeps lines in memory).
        mutating func queue(_ bytes: [UInt8]) -> WriteAction {
            guard !bytes.isEmpty, !isHostGone, !closed else { return .none }
            if keepsLines {
                collected.append(contentsOf: bytes)
                return .none
            }
            let wake = queued.isEmpty && !writing
            queued.append(contentsOf: bytes)
            return wake ? .wakeWriter : .none
        }

        /// Lines written on the calling thread when nothing else is queued or being written (by the responder
        /// thread, which may block, or by a task with a write that does not wait); otherwise queued.
        mutating func writeNow(_ bytes: [UInt8]) -> WriteAction {
            guard !bytes.isEmpty, !isHostGone, !closed else { return .none }
            if keepsLines {
                collected.append(contentsOf: bytes)
                return .none
            }
            guard queued.isEmpty, !writing else {
                // Whoever is writing takes these next: the writer thread loops to them, a write on a caller's
                // thread wakes it at its end (``writeEnded(delivered:unwritten:)``), and lines already queued
                // woke it when they were. A wake-up here would only find the writer thread with nothing to do.
                queued.append(contentsOf: bytes)
                return .none
            }
            writing = true
            inWrite = bytes.count
            return .writeHere(bytes)
        }

        /// The writer thread's next step: wait, write what is queued, or end.
        ///
        /// A direct write (``writeNow(_:)``) is waited for even at close.
        mutating func nextWriterStep() -> WriterStep {
            if !isHostGone && (writing || (queued.isEmpty && !closed)) { return .wait }
            guard !queued.isEmpty, !isHostGone else {
                done = true
                defer { finishWaiters = [] }
                return .end(resume: finishWaiters, hostGone: isHostGone)
            }
            let batch = queued
            queued = []
            writing = true
            inWrite = batch.count
            return .write(batch)
        }

        /// A write (here or on the writer thread) ended; when it failed the host is gone and what is queued is
        /// dropped. `unwritten` is the end of a write that did not wait and found no room for it: it goes first in
        /// the queue, before anything handed over meanwhile, for the writer thread.
        ///
        /// Returns whether the writer thread must be woken after a write on a caller's thread: for what is queued
        /// now, or to end (closed, host gone). An answer written whole while nothing else came wakes no thread.
        @discardableResult
        mutating func writeEnded(delivered: Bool, unwritten: ArraySlice<UInt8> = []) -> Bool {
            writing = false
            inWrite = 0
            if !delivered {
                isHostGone = true
                queued = []
            } else if !unwritten.isEmpty {
                queued = Array(unwritten) + queued
            }
            return !queued.isEmpty || isHostGone || closed
        }

        /// No more lines are taken; the caller returns once the writer thread has ended.
        mutating func finish(_ waiter: Waiter) -> FinishAction {
            closed = true
            if done { return .resume(waiter) }
            finishWaiters.append(waiter)
            return .wakeWriter
        }
    }
}

extension OutputWriter.StateMachine.FinishAction: Equatable where Waiter: Equatable {}
