import NIOConcurrencyHelpers

extension CoalescingFetcher {
    /// One shared call and the callers waiting for it.
    ///
    /// A shell around ``StateMachine``: each step runs one transition under the lock and resumes callers (or
    /// cancels the call) after it.
    final class Flight: Sendable {
        private typealias Answer = Result<Fetched, BoxOfficeError>
        private typealias Machine = StateMachine<CheckedContinuation<Answer, Never>, Answer>

        private let state = NIOLockedValueBox(Machine())
        /// The shared call's task: set by ``start(_:finished:)``, which the fetcher calls before any caller joins.
        private let call = NIOLockedValueBox<Task<Void, Never>?>(nil)

        /// Callers that joined and have not gone.
        var members: Int { state.withLockedValue { $0.members } }

        func start(
            _ body: @escaping @Sendable () async -> Result<Fetched, BoxOfficeError>,
            finished: @escaping @Sendable () -> Void
        ) {
            // On the jobs' event loop when the starting job runs there: the exchange, the decoding and the waiters'
            // resumption then stay on that thread (see ``EventLoopExecutor``).
            let task = Task(executorPreference: EventLoopExecutor.current()) {
                let outcome = await body()
                finished()
                self.perform(self.state.withLockedValue { $0.finish(outcome) })
            }
            call.withLockedValue { $0 = task }
        }

        /// Registers a caller; its ticket for ``wait(_:)``.
        func join() -> UInt64 {
            state.withLockedValue { $0.join() }
        }

        func wait(_ ticket: UInt64) async -> Result<Fetched, BoxOfficeError> {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                    perform(state.withLockedValue { $0.wait(ticket, continuation) })
                }
            } onCancel: {
                perform(state.withLockedValue { $0.leave(ticket) })
            }
        }

        private func perform(_ action: Machine.Action) {
            switch action {
            case .none:
                break
            case .resume(let waiters, let outcome):
                for waiter in waiters { waiter.resume(returning: outcome) }
            case .cancel(let waiter, let cancelCall):
                waiter?.resume(
                    returning: .failure(
                        BoxOfficeError(.upstreamUnavailable, "cancelled while waiting for the upstream")))
                if cancelCall { call.withLockedValue { $0 }?.cancel() }
            }
        }
    }
}

extension CoalescingFetcher.Flight {
    /// The flight's callers and its one outcome, without locks or tasks, so that "cancelled before it waited",
    /// "the last caller left", "finished twice" are tested with plain values (`Waiter` and `Outcome` are plain
    /// values there, continuations and results in the shell).
    struct StateMachine<Waiter: Sendable, Outcome: Sendable>: Sendable {
        /// What the shell does after a transition, outside the lock.
        enum Action {
            case none
            /// Resume these callers with the outcome.
            case resume([Waiter], Outcome)
            /// Resume this caller (if it was waiting) with "cancelled while waiting"; cancel the shared call too
            /// when `cancelCall` (no caller is left and it has not finished).
            case cancel(Waiter?, cancelCall: Bool)
        }

        private var outcome: Outcome?
        private var waiters: [UInt64: Waiter] = [:]
        /// Callers that were cancelled, so that one cancelled before it waits is not kept waiting.
        private var gone: Set<UInt64> = []
        private var lastTicket: UInt64 = 0
        /// Callers that joined and have not gone.
        private(set) var members = 0

        /// A caller joins; its ticket.
        mutating func join() -> UInt64 {
            lastTicket += 1
            members += 1
            return lastTicket
        }

        /// A caller waits: answered now when the call has finished, refused now when it was cancelled, else kept.
        mutating func wait(_ ticket: UInt64, _ waiter: Waiter) -> Action {
            if let outcome { return .resume([waiter], outcome) }
            if gone.contains(ticket) { return .cancel(waiter, cancelCall: false) }
            waiters[ticket] = waiter
            return .none
        }

        /// A caller was cancelled (before or while it waited): it stops waiting; the call is cancelled when it was
        /// the last caller and the call has not finished.
        mutating func leave(_ ticket: UInt64) -> Action {
            gone.insert(ticket)
            members -= 1
            let waiter = waiters.removeValue(forKey: ticket)
            let cancelCall = members == 0 && outcome == nil
            return waiter == nil && !cancelCall ? .none : .cancel(waiter, cancelCall: cancelCall)
        }

        /// The call finished: every waiting caller gets the outcome, in the order they joined. Only the first
        /// outcome counts.
        mutating func finish(_ outcome: Outcome) -> Action {
            guard self.outcome == nil else { return .none }
            self.outcome = outcome
            defer { waiters = [:] }
            return .resume(waiters.sorted { $0.key < $1.key }.map(\.value), outcome)
        }
    }
}

extension CoalescingFetcher.Flight.StateMachine.Action: Equatable where Waiter: Equatable, Outcome: Equatable {}
