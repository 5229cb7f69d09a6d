import DequeModule
import Foundation
import JSONCore

/// The bounded hand-over from the reader thread (read, frame, parse) to the responder thread (classify, dispatch,
/// answer): one batch per input chunk, so the two stages run on two cores and synchronise once per chunk, not once
/// per line. At most ``capacity`` batches wait; then reading waits too, so backpressure reaches stdin.
///
/// A batch leaves the queue's storage when it is taken (a `Deque`): the soak found the earlier array, which only
/// forgot taken batches once it ran empty, holding every parsed line of a host that kept it busy (338 MiB after a
/// million lines).
final class LineQueue: @unchecked Sendable {
    // @unchecked: every stored var is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var batches = Deque<[ParsedLine]>()
    private var finished = false
    private var closed = false
    /// Pushers waiting for room now (0 or 1: there is one reader).
    private var heldPushers = 0
    let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// Adds a batch, waiting while the queue is full; dropped once the queue is closed.
    func push(_ batch: [ParsedLine]) {
        guard !batch.isEmpty else { return }
        condition.lock()
        while batches.count >= capacity && !closed {
            heldPushers += 1
            condition.wait()
            heldPushers -= 1
        }
        guard !closed else {
            condition.unlock()
            return
        }
        let wasEmpty = batches.isEmpty
        batches.append(batch)
        condition.unlock()
        // Signalled after unlocking, so the woken responder does not block again on the lock held here. There is
        // one reader and one responder and the queue cannot be full and empty at once, so `signal` reaches the
        // right waiter.
        if wasEmpty { condition.signal() }
    }

    /// No more batches will come; the responder drains what is queued.
    func finish() {
        condition.lock()
        finished = true
        condition.unlock()
        condition.broadcast()
    }

    /// Shutdown: queued batches are dropped and a waiting reader is released.
    func close() {
        condition.lock()
        closed = true
        finished = true
        batches.removeAll()
        condition.unlock()
        condition.broadcast()
    }

    /// The next batch, waiting for one; `nil` once finished and drained.
    func pop() -> [ParsedLine]? {
        condition.lock()
        while batches.isEmpty && !finished {
            condition.wait()
        }
        guard let batch = batches.popFirst() else {
            condition.unlock()
            return nil
        }
        let wasFull = batches.count + 1 >= capacity
        condition.unlock()
        if wasFull { condition.signal() }
        return batch
    }

    /// Pushers the full queue holds now (for tests: a test waits for this state instead of guessing its time).
    var held: Int {
        condition.lock()
        defer { condition.unlock() }
        return heldPushers
    }

    /// Batches the queue holds now (for tests: never more than ``capacity``).
    var stored: Int {
        condition.lock()
        defer { condition.unlock() }
        return batches.count
    }
}
