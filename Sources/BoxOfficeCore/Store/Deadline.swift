import NIOConcurrencyHelpers

/// Runs an operation with a time limit that holds even when the operation ignores cancellation (a query on a
/// connection whose peer vanished): the caller gets an error at the deadline and the operation is cancelled and
/// left to end on its own.
///
/// Swift's task groups wait for every child, so a child stuck in a socket read would hold the caller past any
/// deadline; this races the operation and a timer in two unstructured tasks and resumes the caller with the first.
/// Who won is ``StateMachine``'s decision, taken under a lock; the resume happens after it.
enum Deadline {
    static func run<T: Sendable>(
        _ limit: Duration, onExpiry: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = NIOLockedValueBox(StateMachine<Task<Void, Never>>())
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work = Task {
                let result: Result<T, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                guard case .resume(let timerToCancel) = race.withLockedValue({ $0.operationEnded() }) else { return }
                timerToCancel?.cancel()
                continuation.resume(with: result)
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled, case .expire = race.withLockedValue({ $0.timerFired() }) else { return }
                work.cancel()
                continuation.resume(throwing: onExpiry())
            }
            if case .cancelTimer(let late) = race.withLockedValue({ $0.timerStarted(timer) }) { late.cancel() }
        }
    }
}

extension Deadline {
    /// The race between the operation and the timer, without tasks: exactly one of them resumes the caller, and a
    /// timer that lost is cancelled, even when the operation ended before the timer was handed over. `Timer` is
    /// the timer task in ``run(_:onExpiry:_:)`` and an `Int` in tests.
    struct StateMachine<Timer: Sendable>: Sendable {
        /// One enum, so that a decided race cannot also hold a timer to cancel later.
        private enum State: Sendable {
            /// Nobody has won; the timer, once handed over.
            case racing(timer: Timer?)
            case decided
        }

        /// What the racer that reported does next, outside the lock.
        enum Action {
            /// It lost: nothing.
            case none
            /// The operation won: resume the caller with its result, and cancel the timer (if handed over yet).
            case resume(cancelTimer: Timer?)
            /// The timer won: cancel the operation and resume the caller with the expiry error.
            case expire
            /// The race was decided before the timer was handed over: cancel it.
            case cancelTimer(Timer)
        }

        private var state = State.racing(timer: nil)

        /// The operation returned or threw.
        mutating func operationEnded() -> Action {
            guard case .racing(let timer) = state else { return .none }
            state = .decided
            return .resume(cancelTimer: timer)
        }

        /// The timer's limit passed.
        mutating func timerFired() -> Action {
            guard case .racing = state else { return .none }
            state = .decided
            return .expire
        }

        /// The timer task exists: kept while the race goes on, else cancelled.
        mutating func timerStarted(_ timer: Timer) -> Action {
            guard case .racing = state else { return .cancelTimer(timer) }
            state = .racing(timer: timer)
            return .none
        }
    }
}

extension Deadline.StateMachine.Action: Equatable where Timer: Equatable {}
