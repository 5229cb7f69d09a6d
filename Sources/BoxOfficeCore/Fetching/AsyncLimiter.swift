import NIOConcurrencyHelpers

/// A counting semaphore for tasks: at most `width` holders; waiters are served first come, first served, and a
/// cancelled waiter leaves the queue at once.
///
/// Why our own: neither swift-async-algorithms nor NIO has an async semaphore with cancellable waiters. The
/// decisions are ``StateMachine``'s; this shell runs them under the lock and resumes continuations after it.
package final class AsyncLimiter: Sendable {
    private typealias Machine = StateMachine<CheckedContinuation<Void, any Error>>
    private let state: NIOLockedValueBox<Machine>

    package init(width: Int) {
        state = NIOLockedValueBox(Machine(width: width))
    }

    /// Tasks waiting for a place now: what a test waits for to know a waiter is queued, without a clock.
    package var waiting: Int { state.withLockedValue { $0.waiting } }

    package func acquire() async throws {
        let id = state.withLockedValue { $0.nextID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // `Task.isCancelled` is read under the lock: a cancellation after it finds the waiter queued.
                let action = state.withLockedValue { $0.acquire(id, continuation, cancelled: Task.isCancelled) }
                perform(action)
            }
        } onCancel: {
            perform(state.withLockedValue { $0.cancel(id) })
        }
    }

    package func release() {
        perform(state.withLockedValue { $0.release() })
    }

    private func perform(_ action: Machine.Action) {
        switch action {
        case .none: break
        case .resume(let waiter): waiter.resume()
        case .fail(let waiter): waiter.resume(throwing: CancellationError())
        }
    }
}

extension AsyncLimiter {
    /// The limiter's places and queue without locks or tasks, so that first come first served and cancellation
    /// before, during and after a wait are tested with plain values (`Waiter` is an `Int` there).
    struct StateMachine<Waiter: Sendable>: Sendable {
        /// What the shell does with a waiter after a transition, outside the lock.
        enum Action {
            case none
            /// It has its place.
            case resume(Waiter)
            /// It was cancelled: it throws `CancellationError`.
            case fail(Waiter)
        }

        private var available: Int
        private var waiters: [(id: UInt64, waiter: Waiter)] = []
        private var lastID: UInt64 = 0

        init(width: Int) {
            available = max(1, width)
        }

        var waiting: Int { waiters.count }

        /// The id of a new ``acquire(_:_:cancelled:)``, taken before it waits so that its cancellation can find it.
        mutating func nextID() -> UInt64 {
            lastID += 1
            return lastID
        }

        /// A task asks for a place: it gets one now, is queued, or (already cancelled) fails without taking one.
        mutating func acquire(_ id: UInt64, _ waiter: Waiter, cancelled: Bool) -> Action {
            if cancelled { return .fail(waiter) }
            if available > 0 {
                available -= 1
                return .resume(waiter)
            }
            waiters.append((id, waiter))
            return .none
        }

        /// The task with `id` was cancelled: it leaves the queue if it is there (not once it holds a place).
        mutating func cancel(_ id: UInt64) -> Action {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return .none }
            return .fail(waiters.remove(at: index).waiter)
        }

        /// A holder gives its place back: to the first waiter, or to the pool.
        mutating func release() -> Action {
            if waiters.isEmpty {
                available += 1
                return .none
            }
            return .resume(waiters.removeFirst().waiter)
        }
    }
}

extension AsyncLimiter.StateMachine.Action: Equatable where Waiter: Equatable {}
