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
final class SpendLedger: Sendable {
    private struct State {
        var pending: [Int64: (day: CalendarDate, count: Int)] = [:]
        /// The newest spend handed in, and the newest written.
        var handedIn: UInt64 = 0
        var written: UInt64 = 0
        var waiters: [(sequence: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var draining: Task<Void, Never>?
        /// The last write failed: answers stop waiting for writes until one works again.
        var failing = false
    }

    private let store: any BoxOfficeStore
    private let worker: String
    private let warnings: CacheWarnings
    private let state = NIOLockedValueBox(State())

    init(store: any BoxOfficeStore, worker: String, warnings: CacheWarnings) {
        self.store = store
        self.worker = worker
        self.warnings = warnings
    }

    /// Hands in one call spent from `lease`; the number to wait for with ``committed(through:)``.
    func spent(_ lease: Int64, day: CalendarDate) -> UInt64 {
        state.withLockedValue { state in
            state.pending[lease, default: (day, 0)].count += 1
            state.handedIn += 1
            if state.draining == nil {
                state.draining = Task { await self.drain() }
            }
            return state.handedIn
        }
    }

    /// Returns once the spends up to `sequence` are written, or at once while the store is failing.
    func committed(through sequence: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                if state.failing || state.written >= sequence { return true }
                state.waiters.append((sequence, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Waits until every spend is written (or the store has failed for a while): at exit. Spends left behind by a
    /// drain that gave up get one more.
    func flush() async {
        state.withLockedValue { state in
            if state.draining == nil, !state.pending.isEmpty {
                state.draining = Task { await self.drain() }
            }
        }
        while let draining = state.withLockedValue({ $0.draining }) {
            await draining.value
        }
    }

    private func drain() async {
        var failures = 0
        while true {
            let (batch, through) = state.withLockedValue {
                state -> ([Int64: (day: CalendarDate, count: Int)], UInt64) in
                let batch = state.pending
                state.pending = [:]
                if batch.isEmpty { state.draining = nil }
                return (batch, state.handedIn)
            }
            guard !batch.isEmpty else { return }
            var failed: [Int64: (day: CalendarDate, count: Int)] = [:]
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
            let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                state.failing = !failed.isEmpty
                if failed.isEmpty {
                    state.written = max(state.written, through)
                } else {
                    for (lease, spend) in failed { state.pending[lease, default: (spend.day, 0)].count += spend.count }
                }
                let release = state.failing ? state.waiters : state.waiters.filter { $0.sequence <= state.written }
                state.waiters.removeAll { state.failing || $0.sequence <= state.written }
                return release.map(\.continuation)
            }
            for continuation in ready { continuation.resume() }
            guard !failed.isEmpty else {
                failures = 0
                continue
            }
            failures += 1
            if failures > 8 {
                // About ten seconds of a failing store: keep the spends for a later drain (the next spend starts
                // one, and so does the exit) rather than spinning.
                state.withLockedValue { $0.draining = nil }
                warnings.report(
                    "\(failed.values.map(\.count).reduce(0, +)) KOBIS calls are not recorded in the store yet")
                return
            }
            try? await Task.sleep(for: .milliseconds(50 << min(failures, 5)))
        }
    }
}
