import NIOConcurrencyHelpers

/// A one-shot signal that a request was cancelled (by `$/cancelRequest` or by shutdown), awaitable by one task.
/// The CLI's range export uses it too, for "stop: interrupted, or done".
package final class CancellationSignal: Sendable {
    private struct State {
        var fired = false
        var byShutdown = false
        var waiter: CheckedContinuation<Void, Never>?
        var waiterGone = false
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Fires the signal; the first reason wins.
    package func fire(byShutdown: Bool) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.fired else { return nil }
            state.fired = true
            state.byShutdown = byShutdown
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    package var isFired: Bool { state.withLockedValue { $0.fired } }
    package var firedByShutdown: Bool { state.withLockedValue { $0.byShutdown } }

    /// Returns when the signal fires, or when the waiting task is cancelled.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.fired || state.waiterGone { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                state.waiterGone = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
