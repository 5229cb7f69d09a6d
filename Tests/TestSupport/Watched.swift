import Foundation
import NIOConcurrencyHelpers

/// A value that changes on other threads (a worker's output, a fake server's requests), and waits for a condition
/// on it.
///
/// A wait is checked when it starts and after every change, and its continuation is resumed by the change that
/// meets it, or with `false` by its deadline (a Dispatch timer): nothing sleeps, nothing polls, and a test that
/// waits for something that never happens fails at its deadline instead of hanging the suite.
package final class Watched<Value: Sendable>: Sendable {
    private struct Waiter {
        let isMet: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var value: Value
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>

    package init(_ value: Value) {
        state = NIOLockedValueBox(State(value: value))
    }

    package var value: Value { state.withLockedValue { $0.value } }

    /// Applies `change`, then resumes every waiter it satisfied (outside the lock).
    package func update(_ change: (inout Value) -> Void) {
        let met = state.withLockedValue { state -> [Waiter] in
            change(&state.value)
            let ready = state.waiters.filter { $0.value.isMet(state.value) }
            for key in ready.keys { state.waiters[key] = nil }
            return Array(ready.values)
        }
        for waiter in met { waiter.continuation.resume(returning: true) }
    }

    /// Whether `isMet` held, now or within `timeout` seconds.
    package func wait(timeout: Double, until isMet: @escaping @Sendable (Value) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = state.withLockedValue { state -> UInt64? in
                if isMet(state.value) { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = Waiter(isMet: isMet, continuation: continuation)
                return state.nextWaiter
            }
            guard let id else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in  // sleep-ok: a deadline
                let expired = state.withLockedValue { $0.waiters.removeValue(forKey: id) }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}
