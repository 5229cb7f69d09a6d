import Foundation
import Synchronization
import TestSupport
import Testing

@testable import JSONRPC

/// The reader → responder hand-over: order, the bound (a full queue holds the reader), finish and close.
@Suite("Line queue")
struct LineQueueTests {
    @Test("batches come out in order; empty batches are not queued; finish drains then ends")
    func order() {
        let queue = LineQueue(capacity: 4)
        queue.push([.tooLong])
        queue.push([])
        queue.push([.tooLong, .tooLong])
        queue.finish()
        #expect(queue.pop()?.count == 1)
        #expect(queue.pop()?.count == 2)
        #expect(queue.pop() == nil)
    }

    @Test("a taken batch leaves the queue even when the queue never runs empty (the soak's memory growth)")
    func takenBatchesAreReleased() {
        let queue = LineQueue(capacity: 4)
        queue.push([.tooLong])
        for _ in 0..<1000 {
            queue.push([.tooLong, .tooLong])
            #expect(queue.pop() != nil)
            #expect(queue.stored <= 4)
        }
        #expect(queue.stored == 1)
    }

    @Test("a full queue holds the pusher until a batch is taken")
    func bound() async throws {
        let queue = LineQueue(capacity: 2)
        queue.push([.tooLong])
        queue.push([.tooLong])
        let pushed = Atomic<Bool>(false)
        let pusher = Thread {
            queue.push([.tooLong, .tooLong, .tooLong])
            pushed.store(true, ordering: .releasing)
        }
        pusher.start()
        #expect(await eventually { queue.held == 1 }, "the pusher was never held")
        let pushedNow = pushed.load(ordering: .acquiring)
        #expect(!pushedNow)
        #expect(queue.pop()?.count == 1)
        #expect(await eventually { pushed.load(ordering: .acquiring) }, "the pusher was never let through")
        queue.finish()
        #expect(queue.pop()?.count == 1)
        #expect(queue.pop()?.count == 3)
        #expect(queue.pop() == nil)
    }

    @Test("close drops what waits and releases a blocked pusher and a waiting popper")
    func close() async throws {
        let queue = LineQueue(capacity: 1)
        queue.push([.tooLong])
        let released = Atomic<Int>(0)
        let pusher = Thread {
            queue.push([.tooLong])
            released.add(1, ordering: .releasing)
        }
        pusher.start()
        #expect(await eventually { queue.held == 1 }, "the pusher was never held")
        queue.close()
        #expect(await eventually { released.load(ordering: .acquiring) == 1 }, "close did not release the pusher")
        #expect(queue.pop() == nil)
    }
}
