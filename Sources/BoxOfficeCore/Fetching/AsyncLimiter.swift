import NIOConcurrencyHelpers

/// A counting semaphore for tasks: at most `width` holders; waiters are served first come, first served, and a
/// cancelled waiter leaves the queue at once.
///
/// Why our own: neither swift-async-algorithms nor NIO has an async semaphore with cancellable waiters.
package final class AsyncLimiter: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>

    package init(width: Int) {
        state = NIOLockedValueBox(State(available: max(1, width)))
    }

    /// Tasks waiting for a place now: what a test waits for to know a waiter is queued, without a clock.
    package var waiting: Int { state.withLockedValue { $0.waiters.count } }

    package func acquire() async throws {
        let id = state.withLockedValue { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLockedValue { state -> Bool in
                    if Task.isCancelled { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return false
                }
                if granted {
                    continuation.resume()
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    package func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
