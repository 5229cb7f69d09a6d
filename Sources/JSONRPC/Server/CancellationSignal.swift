import NIOConcurrencyHelpers

/// A one-shot signal that a request was cancelled (by `$/cancelRequest` or by shutdown), awaitable by one task.
/// The CLI's range export uses it too, for "stop: interrupted, or done".
///
/// A shell around ``StateMachine``: each method runs one transition under the lock and resumes the continuation it
/// returns after the lock is released.
package final class CancellationSignal: Sendable {
    private struct Locked {
        var machine = StateMachine<CheckedContinuation<Void, Never>>()
        /// Run once when the signal fires (``whenFired(_:)``): a job's task cancelled.
        var onFire: (@Sendable () -> Void)?
    }

    private let state = NIOLockedValueBox(Locked())

    package init() {}

    /// Fires the signal; the first reason wins.
    package func fire(byShutdown: Bool) {
        let (action, handler) = state.withLockedValue { locked in
            let action = locked.machine.fire(byShutdown: byShutdown)
            defer { locked.onFire = nil }
            return (action, locked.onFire)
        }
        if case .resume(let waiter) = action { waiter.resume() }
        handler?()
    }

    /// Runs `handler` when the signal fires, or now when it has fired. One handler; the first fire runs it.
    package func whenFired(_ handler: @escaping @Sendable () -> Void) {
        let fired = state.withLockedValue { locked -> Bool in
            guard !locked.machine.isFired else { return true }
            locked.onFire = handler
            return false
        }
        if fired { handler() }
    }

    package var isFired: Bool { state.withLockedValue { $0.machine.isFired } }
    package var firedByShutdown: Bool { state.withLockedValue { $0.machine.firedByShutdown } }

    /// Returns when the signal fires, or when the waiting task is cancelled.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if case .resume(let waiter) = state.withLockedValue({ $0.machine.wait(continuation) }) {
                    waiter.resume()
                }
            }
        } onCancel: {
            if case .resume(let waiter) = state.withLockedValue({ $0.machine.waiterCancelled() }) { waiter.resume() }
        }
    }
}

extension CancellationSignal {
    /// The signal's decisions without locks or tasks, so that "fired before the wait", "cancelled before the wait"
    /// and "fired twice" are tested with plain values: `Waiter` is a continuation in the shell and an `Int` in tests.
    struct StateMachine<Waiter: Sendable>: Sendable {
        /// One enum, so that "fired" and "someone is waiting" cannot both hold.
        private enum State: Sendable {
            case idle
            case waiting(Waiter)
            /// The waiting task was cancelled before the signal fired: a wait returns at once from now on.
            case abandoned
            case fired(byShutdown: Bool)
        }

        /// What the shell does after a transition, outside the lock.
        enum Action {
            case none
            case resume(Waiter)
        }

        private var state = State.idle

        var isFired: Bool {
            if case .fired = state { return true }
            return false
        }

        var firedByShutdown: Bool {
            if case .fired(let byShutdown) = state { return byShutdown }
            return false
        }

        /// The signal fires: the waiter, if any, is resumed. A second fire changes nothing (the first reason wins).
        mutating func fire(byShutdown: Bool) -> Action {
            switch state {
            case .idle, .abandoned:
                state = .fired(byShutdown: byShutdown)
                return .none
            case .waiting(let waiter):
                state = .fired(byShutdown: byShutdown)
                return .resume(waiter)
            case .fired:
                return .none
            }
        }

        /// A task waits: resumed at once when the signal fired or the waiting task was cancelled, else kept.
        ///
        /// - Important: One waiter at a time; a second one is a programming error.
        mutating func wait(_ waiter: Waiter) -> Action {
            switch state {
            case .idle:
                state = .waiting(waiter)
                return .none
            case .abandoned, .fired:
                return .resume(waiter)
            case .waiting:
                preconditionFailure("CancellationSignal is awaited by one task at a time")
            }
        }

        /// The waiting task was cancelled (possibly before it reached ``wait(_:)``): its waiter, if kept, is resumed.
        mutating func waiterCancelled() -> Action {
            switch state {
            case .idle:
                state = .abandoned
                return .none
            case .waiting(let waiter):
                state = .abandoned
                return .resume(waiter)
            case .abandoned, .fired:
                return .none
            }
        }
    }
}

extension CancellationSignal.StateMachine.Action: Equatable where Waiter: Equatable {}
