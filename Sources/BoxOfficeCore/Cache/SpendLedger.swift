import Synchronization

/// Writes a quota lease's spent calls to the store right behind the calls: the request does not wait for it.
/// Spends gather for ``gathering`` and those of one lease are summed into one statement, so a busy worker writes
/// a few times per lease rather than once per call; a process killed in between loses at most the spends of that
/// window (a few milliseconds), which is the whole of the quota's inexactness against SIGKILL.
///
/// A failing store keeps the spends and tries again with a growing pause; a lease reclaimed meanwhile (its
/// holder let it expire) has its spends recorded as calls made without a lease, so no call is hidden.
final class SpendLedger: Sendable {
    private struct State {
        var pending: [Int64: (day: CalendarDate, count: Int)] = [:]
        var draining: Task<Void, Never>?
    }

    /// How long spends gather before they are written.
    static let gathering: Duration = .milliseconds(5)

    private let store: any BoxOfficeStore
    private let worker: String
    private let warnings: CacheWarnings
    private let state = Mutex(State())

    init(store: any BoxOfficeStore, worker: String, warnings: CacheWarnings) {
        self.store = store
        self.worker = worker
        self.warnings = warnings
    }

    func spent(_ lease: Int64, day: CalendarDate) {
        state.withLock { state in
            state.pending[lease, default: (day, 0)].count += 1
            if state.draining == nil {
                state.draining = Task { await self.drain() }
            }
        }
    }

    /// Waits until every spend is written (or the store has failed for a while): at exit. Spends left behind by
    /// a drain that gave up get one more.
    func flush() async {
        state.withLock { state in
            if state.draining == nil, !state.pending.isEmpty {
                state.draining = Task { await self.drain() }
            }
        }
        while let draining = state.withLock({ $0.draining }) {
            await draining.value
        }
    }

    private func drain() async {
        var failures = 0
        while true {
            try? await Task.sleep(for: Self.gathering)
            let batch = state.withLock { state -> [Int64: (day: CalendarDate, count: Int)] in
                let batch = state.pending
                state.pending = [:]
                if batch.isEmpty { state.draining = nil }
                return batch
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
            guard !failed.isEmpty else {
                failures = 0
                continue
            }
            failures += 1
            state.withLock { state in
                for (lease, spend) in failed { state.pending[lease, default: (spend.day, 0)].count += spend.count }
            }
            if failures > 8 {
                // About ten seconds of a failing store: keep the spends for a later drain (the next spend starts
                // one) rather than spinning; at exit they are reported as lost.
                state.withLock { $0.draining = nil }
                warnings.report(
                    "\(failed.values.map(\.count).reduce(0, +)) KOBIS calls are not recorded in the store yet")
                return
            }
            try? await Task.sleep(for: .milliseconds(50 << min(failures, 5)))
        }
    }
}
