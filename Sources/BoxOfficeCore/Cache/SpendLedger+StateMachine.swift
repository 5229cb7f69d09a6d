extension SpendLedger {
    /// The ledger's bookkeeping without locks, tasks or a store: which spends wait to be written, which answers
    /// wait for a write, and when a drain must start or has ended. The shell runs each transition under its lock and
    /// does what it returns (start a drain, resume waiters) after it, so "a failing store releases every answer",
    /// "a write releases only the answers it covers" and "flush waits for the drain" are tested with plain values
    /// (`Waiter` is an `Int` there, a continuation in the shell).
    struct StateMachine<Waiter: Sendable>: Sendable {
        /// Spent calls per lease, to be written as one batch.
        typealias Batch = [Int64: (day: CalendarDate, count: Int)]

        /// What the shell does after a transition, outside the lock.
        enum Action {
            case none
            /// Start a drain task: none is running and there are spends to write.
            case startDrain
            /// Resume these waiters.
            case resume([Waiter])
        }

        /// The drain's next step.
        enum DrainStep {
            /// Write this batch; it holds every spend handed in up to `through`.
            case write(Batch, through: UInt64)
            /// Nothing is left: the drain ends, and these ``flush(_:)`` waiters are resumed.
            case stop(resume: [Waiter])
        }

        private var pending: Batch = [:]
        /// The newest spend handed in, and the newest written.
        private var handedIn: UInt64 = 0
        private var written: UInt64 = 0
        /// Answers waiting for their spend to be written.
        private var committedWaiters: [(sequence: UInt64, waiter: Waiter)] = []
        /// ``SpendLedger/flush()`` callers waiting for the drain to end.
        private var flushWaiters: [Waiter] = []
        private(set) var draining = false
        /// The last write failed: answers stop waiting for writes until one works again.
        private(set) var failing = false

        /// Hands in one call spent from `lease`: its number for ``committed(through:_:)``, and whether a drain must
        /// start.
        mutating func spent(_ lease: Int64, day: CalendarDate) -> (sequence: UInt64, action: Action) {
            pending[lease, default: (day, 0)].count += 1
            handedIn += 1
            return (handedIn, startDrainIfIdle())
        }

        /// An answer waits for the spends up to `sequence`: resumed now if they are written or the store is failing.
        mutating func committed(through sequence: UInt64, _ waiter: Waiter) -> Action {
            if failing || written >= sequence { return .resume([waiter]) }
            committedWaiters.append((sequence, waiter))
            return .none
        }

        /// A flush waits for the drain to end; it starts one for spends a drain left behind when it gave up.
        mutating func flush(_ waiter: Waiter) -> Action {
            if !draining && pending.isEmpty { return .resume([waiter]) }
            flushWaiters.append(waiter)
            return startDrainIfIdle()
        }

        /// The drain takes everything pending as one batch, or ends when nothing is.
        mutating func nextBatch() -> DrainStep {
            guard !pending.isEmpty else {
                draining = false
                defer { flushWaiters = [] }
                return .stop(resume: flushWaiters)
            }
            defer { pending = [:] }
            return .write(pending, through: handedIn)
        }

        /// The drain wrote a batch through `through`, except the leases in `failed`, which wait for the next one.
        /// Releases the answers now written, or every answer while the store is failing.
        mutating func wrote(through: UInt64, failed: Batch) -> Action {
            failing = !failed.isEmpty
            if failing {
                for (lease, spend) in failed { pending[lease, default: (spend.day, 0)].count += spend.count }
            } else {
                written = max(written, through)
            }
            // While the store is failing every answer goes.
            let cutoff = failing ? UInt64.max : written
            let released = committedWaiters.filter { $0.sequence <= cutoff }
            committedWaiters.removeAll { $0.sequence <= cutoff }
            return released.isEmpty ? .none : .resume(released.map(\.waiter))
        }

        /// The drain gave up on a failing store: the spends stay pending for a later drain, and flushes return.
        mutating func drainGaveUp() -> Action {
            draining = false
            defer { flushWaiters = [] }
            return flushWaiters.isEmpty ? .none : .resume(flushWaiters)
        }

        private mutating func startDrainIfIdle() -> Action {
            guard !draining, !pending.isEmpty else { return .none }
            draining = true
            return .startDrain
        }
    }
}

extension SpendLedger.StateMachine.Action: Equatable where Waiter: Equatable {}
