import FoundationEssentials
import Glibc
import JSONCore

/// The bounded hand-over from the reader thread (read, frame, parse) to the responder thread (classify, dispatch,
/// answer): one batch per input chunk, so the two stages run on two cores and synchronise once per chunk, not once
/// per line. At most ``capacity`` batches wait; then reading waits too (the reader thread in ``push(_:)``, a pump
/// by pausing after the ``offer(_:resume:)`` that filled it), so backpressure reaches stdin. An offer never waits: it
/// may go past the bound by what the pump holds when it must (the last lines at the end of input).
///
/// A small batch that finds the responder with nothing to do is answered by the reader itself (``claim()``): a host
/// that sends a request and waits for its answer would otherwise pay a futex wake-up and two context switches per
/// request for a hand-over that overlaps nothing (issue 43). Only one of the two threads answers at a time, in
/// reading order: the reader claims only an idle responder with an empty queue, and only the reader can give it work.
///
/// A batch leaves the queue's storage when it is taken (a `Deque`): the soak found the earlier array, which only
/// forgot taken batches once it ran empty, holding every parsed line of a host that kept it busy (338 MiB after a
/// million lines).
///
/// The queue's decisions are ``StateMachine``'s; this class holds the condition variable, and waits and wakes as a
/// transition says.
///
/// `@unchecked`: `machine`, `heldPushers` and `resumePusher` are read and written only while `condition` is locked.
final class LineQueue: @unchecked Sendable {
    private let condition = Condition()
    private var machine: StateMachine<ParsedLine>
    /// Pushers waiting for room now (0 or 1: there is one reader).
    private var heldPushers = 0
    /// How to resume the reader that stopped when its ``offer(_:resume:)`` filled the queue.
    private var resumePusher: (@Sendable () -> Void)?
    let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
        machine = StateMachine(capacity: capacity)
    }

    /// Adds a batch, waiting while the queue is full; dropped once the queue is closed.
    func push(_ batch: [ParsedLine]) {
        condition.lock()
        while true {
            switch machine.push(batch) {
            case .wait:
                heldPushers += 1
                condition.wait()
                heldPushers -= 1
            case .dropped:
                condition.unlock()
                return
            case .pushed(let wakeResponder):
                condition.unlock()
                // Signalled after unlocking, so the woken responder does not block again on the lock held here.
                // There is one reader and one responder and the queue cannot be full and empty at once, so
                // `signal` reaches the right waiter.
                if wakeResponder { condition.signal() }
                return
            }
        }
    }

    /// Adds a batch without waiting, for a reader that must never wait (``PumpedInput``, on the event loop that runs
    /// the jobs a wait would wait for). False when the queue is full now: the caller stops reading, and `resume` is
    /// called once, from the responder's thread, when it took a batch (not when the queue closes: a stop ends the
    /// reading itself).
    func offer(_ batch: [ParsedLine], resume: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        guard case .pushed(let wakeResponder, let full) = machine.offer(batch) else {
            condition.unlock()
            return true
        }
        if full { resumePusher = resume }
        condition.unlock()
        if wakeResponder { condition.signal() }
        return !full
    }

    /// No more batches will come; the responder drains what is queued.
    func finish() {
        condition.lock()
        machine.finish()
        condition.unlock()
        condition.broadcast()
    }

    /// Shutdown: queued batches are dropped and a waiting reader is released.
    func close() {
        condition.lock()
        machine.close()
        condition.unlock()
        condition.broadcast()
    }

    /// Lets the reader answer its batch itself: true when the responder has nothing queued and is not answering;
    /// ``endClaim()`` must follow. False once the input finished or the queue closed.
    func claim() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return machine.claim()
    }

    /// The reader has answered the batch it claimed.
    func endClaim() {
        condition.lock()
        let wakeResponder = machine.endClaim()
        condition.unlock()
        if wakeResponder { condition.signal() }
    }

    /// The next batch, waiting for one; `nil` once finished and drained.
    func pop() -> [ParsedLine]? {
        condition.lock()
        while true {
            switch machine.pop() {
            case .wait:
                condition.wait()
            case .end:
                condition.unlock()
                return nil
            case .popped(let batch, let wakePusher, let resume):
                let resumed = resume ? resumePusher.take() : nil
                condition.unlock()
                if wakePusher { condition.signal() }
                resumed?()
                return batch
            }
        }
    }

    /// Pushers the full queue holds now (for tests: a test waits for this state instead of guessing its time).
    var held: Int {
        condition.lock()
        defer { condition.unlock() }
        return heldPushers
    }

    /// Batches the reader answered itself (for tests: which thread answered).
    var claims: Int {
        condition.lock()
        defer { condition.unlock() }
        return machine.claims
    }

    /// Batches the queue holds now (for tests: never more than ``capacity``).
    var stored: Int {
        condition.lock()
        defer { condition.unlock() }
        return machine.stored
    }
}
