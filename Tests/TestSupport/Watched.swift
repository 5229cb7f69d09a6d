import NIOConcurrencyHelpers

/// A value that changes on other threads (a worker's output, a fake server's requests), and waits for a condition
/// on it.
///
/// A wait is checked when it starts and after every change, and its continuation is resumed by the change that
/// meets it, or with `false` by its deadline: nothing polls the value, and a test that waits for something that
/// never happens fails at its deadline instead of hanging the suite.
///
/// The deadline is a task on the cooperative pool that counts the time it was given, in turns of at most
/// ``turn``, not the wall clock. Changes often come from tasks on that pool too (a worker's output is collected by
/// one), and a pool held by CPU-bound tests (the first 34 s of the suite under ThreadSanitizer on two cores) held
/// them back: a Dispatch timer then fired while the answer the test waited for sat in a pipe, and a worker's first
/// line "never came" (CI's `--full`, `OrderlyStopTests`).
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
            Task { [self] in
                let clock = ContinuousClock()
                let limit = Duration.milliseconds(Int64(timeout * 1000))
                var given = Duration.zero
                while given < limit, state.withLockedValue({ $0.waiters[id] != nil }) {
                    let asleep = clock.now
                    try? await Task.sleep(for: Self.pace)  // sleep-ok: the pace of a deadline's count
                    given += min(clock.now - asleep, Self.turn)
                }
                let expired = state.withLockedValue { $0.waiters.removeValue(forKey: id) }
                expired?.continuation.resume(returning: false)
            }
        }
    }

    /// How often the deadline counts, and the most one count may add: a wake later than that was a stall of the
    /// pool, not time the wait was given.
    private static var pace: Duration { .milliseconds(50) }
    private static var turn: Duration { .milliseconds(100) }
}
