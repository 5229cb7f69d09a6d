import NIOConcurrencyHelpers

/// Writes a quota lease's spent calls to the store, in batches, while the calls are under way: the KOBIS call and
/// the write of its spend run at the same time, and the answer waits for both (``committed(through:)``), so a
/// worker killed at any moment after a host got an answer has recorded every call behind it — the lease's unspent
/// part, which another worker reclaims after the expiry, never includes a call that was made. (A worker killed
/// while a call is in flight may lose that one spend if the call reached KOBIS before the write committed: the
/// write is sent first and takes a fraction of a millisecond.)
///
/// Spends that arrive while a write is in progress go together in the next one, summed per lease. A failing store
/// keeps the spends and tries again with a growing pause, and meanwhile answers do not wait for it; a lease
/// reclaimed meanwhile (its holder let it expire) has its spends recorded as calls made without a lease, so no call
/// is hidden.
///
/// The bookkeeping is ``StateMachine``'s; this shell runs its transitions under the lock, and starts drains and
/// resumes waiters after it.
final class SpendLedger: Sendable {
    private typealias Machine = StateMachine<CheckedContinuation<Void, Never>>

    private let store: any BoxOfficeStore
    private let worker: String
    private let warnings: CacheWarnings
    private let state = NIOLockedValueBox(Machine())

    init(store: any BoxOfficeStore, worker: String, warnings: CacheWarnings) {
        self.store = store
        self.worker = worker
        self.warnings = warnings
    }

    /// Hands in one call spent from `lease`; the number to wait for with ``committed(through:)``.
    func spent(_ lease: Int64, day: CalendarDate) -> UInt64 {
        let (sequence, action) = state.withLockedValue { $0.spent(lease, day: day) }
        perform(action)
        return sequence
    }

    /// Returns once the spends up to `sequence` are written, or at once while the store is failing.
    func committed(through sequence: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            perform(state.withLockedValue { $0.committed(through: sequence, continuation) })
        }
    }

    /// Waits until every spend is written (or the store has failed for a while): at exit. Spends left behind by a
    /// drain that gave up get one more.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            perform(state.withLockedValue { $0.flush(continuation) })
        }
    }

    private func perform(_ action: Machine.Action) {
        switch action {
        case .none:
            break
        case .startDrain:
            // Unstructured on purpose: the drain serves every caller and outlives the one whose spend started it.
            // On the jobs' event loop when the caller runs there (``EventLoopExecutor``): no thread to wake for it.
            Task(executorPreference: EventLoopExecutor.current()) { await self.drain() }
        case .resume(let waiters):
            for waiter in waiters { waiter.resume() }
        }
    }

    private func drain() async {
        var failures = 0
        while true {
            let batch: Machine.Batch
            let through: UInt64
            switch state.withLockedValue({ $0.nextBatch() }) {
            case .stop(let flushes):
                perform(.resume(flushes))
                return
            case .write(let pending, let handedIn):
                batch = pending
                through = handedIn
            }
            var failed: Machine.Batch = [:]
            for (lease, spend) in batch {
                do {
                    if try await !store.spend(lease: lease, count: spend.count) {
                        try await store.recordCalls(.kobis, day: spend.day, worker: worker, count: spend.count)
                    }
                } catch {
                    failed[lease] = spend
                    warnings.failed("\(store.description.location) cannot record KOBIS calls (\(error)); trying again")
                }
            }
            perform(state.withLockedValue { $0.wrote(through: through, failed: failed) })
            guard !failed.isEmpty else {
                failures = 0
                continue
            }
            failures += 1
            if failures > 8 {
                // About ten seconds of a failing store: keep the spends for a later drain (the next spend starts
                // one, and so does the exit) rather than spinning.
                perform(state.withLockedValue { $0.drainGaveUp() })
                warnings.report(
                    "\(failed.values.map(\.count).reduce(0, +)) KOBIS calls are not recorded in the store yet")
                return
            }
            try? await Task.sleep(for: .milliseconds(50 << min(failures, 5)))
        }
    }
}
