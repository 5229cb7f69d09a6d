import FoundationEssentials
import Glibc

/// The one count of lines in flight: taken when the responder thread hands a line on (or, in `--ordered` mode,
/// answers one whose turn has not come), given back when its answer reaches the writer.
///
/// At `limit` the responder thread waits in ``enter()`` (a condition variable, woken by ``leave()`` or ``close()``),
/// the line queue fills, and reading stops: backpressure all the way to stdin. The same count is what
/// `worker.status` reports as in flight.
final class InFlightGate: @unchecked Sendable {
    // @unchecked: `count` and `closed` are read and written only while `condition` is locked.
    private let condition = Condition()
    private var current = 0
    private var closed = false
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a place, waiting for one; false once ``close()`` was called (shutdown: nothing new starts).
    ///
    /// - Important: Blocks the calling thread: the one answering lines (the responder, or the reader answering a
    ///   chunk itself), never a task's.
    func enter() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while current >= limit && !closed {
            condition.wait()
        }
        guard !closed else { return false }
        current += 1
        return true
    }

    /// Takes a place if one is free now.
    func tryEnter() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard current < limit, !closed else { return false }
        current += 1
        return true
    }

    /// Gives a place back.
    func leave() {
        leave(count: 1)
    }

    /// Gives `count` places back at once (a run of ordered answers written together).
    func leave(count: Int) {
        guard count > 0 else { return }
        condition.lock()
        current -= count
        condition.unlock()
        condition.signal()
    }

    /// Releases a waiting ``enter()`` with false, and every later one.
    func close() {
        condition.lock()
        closed = true
        condition.unlock()
        condition.broadcast()
    }

    /// Whether `count` places are free now: a thread that must not wait (the event loop reading stdin) answers a
    /// chunk of `count` lines itself only then, since only the answering thread takes places.
    func hasRoom(for count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return current + count <= limit && !closed
    }

    /// Lines in flight now.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return current
    }
}
