import NIOConcurrencyHelpers

/// The tasks of the jobs the responder thread hands on: each job a task of its own, started there and then, which
/// its request's cancellation signal cancels directly; and a count that tells the server when the last has ended.
///
/// Why not a task group fed by a stream, as before: a job then took a hop from the responder thread to the task
/// reading the stream and a second into the group's child, and a call raced its cancellation signal in a group of
/// two more tasks — four tasks and their wake-ups for one request (issue 43: an uncached call's CPU was a third
/// hand-offs between threads). Unstructured on purpose, and owned all the same: every task is counted until it
/// ends, and ``allEnded()`` is what the server awaits before it stops writing.
///
/// Where the tasks run: on ``ServerConfiguration/jobExecutor`` (the worker gives its HTTP client's event loop, so a
/// job runs where its upstream exchange does), or on the global pool without one.
///
/// Holding (serving in memory): jobs are kept and started together at ``close()``, so that every line is handled
/// before any work runs, as ``RPCServer/answers(to:registry:configuration:)`` promises.
final class JobTasks: Sendable {
    private struct Held: Sendable {
        let body: @Sendable () async -> Void
        let signal: CancellationSignal?
    }

    private struct State {
        var running = 0
        var closed = false
        var held: [Held] = []
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let holding: Bool
    private let executor: (any TaskExecutor)?
    private let state = NIOLockedValueBox(State())

    init(holding: Bool = false, executor: (any TaskExecutor)? = nil) {
        self.holding = holding
        self.executor = executor
    }

    /// Starts `body` as a task now (or at ``close()`` when holding), cancelled when `signal` fires.
    func start(_ body: @escaping @Sendable () async -> Void, cancelledBy signal: CancellationSignal?) {
        let held = Held(body: body, signal: signal)
        let now = state.withLockedValue { state -> Bool in
            state.running += 1
            guard holding else { return true }
            state.held.append(held)
            return false
        }
        if now { launch(held) }
    }

    /// No job is handed on after this: the responder ended. Held jobs start now.
    func close() {
        let (held, waiter) = state.withLockedValue { state in
            state.closed = true
            defer { state.held = [] }
            return (state.held, state.running == 0 ? state.waiter.take() : nil)
        }
        for job in held { launch(job) }
        waiter?.resume()
    }

    /// Returns once ``close()`` was called and every job's task has ended. One waiter.
    func allEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state -> Bool in
                if state.closed && state.running == 0 { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func launch(_ job: Held) {
        let task = Task(executorPreference: executor) {
            await job.body()
            self.ended()
        }
        job.signal?.whenFired { task.cancel() }
    }

    private func ended() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.running -= 1
            return state.closed && state.running == 0 ? state.waiter.take() : nil
        }
        waiter?.resume()
    }
}
