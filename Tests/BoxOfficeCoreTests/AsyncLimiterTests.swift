import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import BoxOfficeCore

/// The per-service bound: first come first served, and a waiter cancelled while it waits leaves at once without
/// taking (or losing) a place.
@Suite("Async limiter")
struct AsyncLimiterTests {
    /// The order in which waiters got their place.
    final class Order: Sendable {
        private let list = NIOLockedValueBox<[Int]>([])
        func append(_ value: Int) { list.withLockedValue { $0.append(value) } }
        var values: [Int] { list.withLockedValue { $0 } }
    }

    @Test("a waiter cancelled while waiting throws CancellationError at once; the place it waited for is not lost")
    func cancellationWhileWaiting() async throws {
        let limiter = AsyncLimiter(width: 1)
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        #expect(await eventually { limiter.waiting == 1 }, "the waiter never queued")
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        limiter.release()
        // The one place is free again: a new holder gets it at once.
        try await limiter.acquire()
        limiter.release()
    }

    @Test("waiters are served in arrival order, never more than the width at once")
    func fifo() async throws {
        let limiter = AsyncLimiter(width: 1)
        try await limiter.acquire()
        let order = Order()
        var waiters: [Task<Void, any Error>] = []
        for index in 0..<5 {
            let waiter = Task { @Sendable in
                try await limiter.acquire()
                order.append(index)
                limiter.release()
            }
            waiters.append(waiter)
            // The next one arrives once this one is queued: arrival order is then the index order.
            #expect(await eventually { limiter.waiting == index + 1 }, "waiter \(index) never queued")
        }
        limiter.release()
        for waiter in waiters { try await waiter.value }
        #expect(order.values == [0, 1, 2, 3, 4])
    }

    @Test("a task already cancelled before it waits does not take a place")
    func cancelledBeforeWaiting() async throws {
        let limiter = AsyncLimiter(width: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await limiter.acquire()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await limiter.acquire()
        limiter.release()
    }
}
