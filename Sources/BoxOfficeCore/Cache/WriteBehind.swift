import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers

/// Writes fetched bodies to the shared store after the answer has gone, in batches, retrying until they are in.
///
/// A fan-out of twenty parts would otherwise wait for twenty transactions, one after another on SQLite's single
/// writer, before its answer could be written. The memory tier already serves the entries meanwhile.
///
/// A batch that fails (another process holds the write lock past the busy timeout, the disk is full) is kept and
/// tried again with a growing pause (``retryDelays``), so a passing lock loses nothing; the outage is warned about
/// once. At most ``maximumPending`` bodies wait: past that the oldest are dropped, and said so. ``flush()`` (at exit)
/// waits until everything is written, or until ``flushPatience`` has passed since the exit began with the store
/// still failing.
final class WriteBehind: Sendable {
    private struct State {
        var queue: [StoredItem] = []
        var drain: Task<Void, Never>?
        /// Set by ``flush()``: a failure past this instant drops what is left instead of retrying.
        var giveUpAt: ContinuousClock.Instant?
    }

    /// How long a batch gathers before it is written: the entries of one fan-out go in one transaction, and the
    /// writes keep out of the way of the quota's, which are on the requests' path.
    static let gathering: Duration = .milliseconds(10)
    /// Pauses between tries of a failing batch; the last one repeats.
    static let retryDelays: [Duration] = [
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
    ]
    static let maximumPending = 4096
    /// How long an exit keeps trying a failing store (a little more than SQLite's busy timeout).
    static let flushPatience: Duration = .seconds(6)

    private let store: any BoxOfficeStore
    private let warnings: CacheWarnings
    private let state = NIOLockedValueBox(State())

    init(store: any BoxOfficeStore, warnings: CacheWarnings) {
        self.store = store
        self.warnings = warnings
    }

    func schedule(_ item: StoredItem) {
        let dropped = state.withLockedValue { state -> Int in
            state.queue.append(item)
            let over = max(0, state.queue.count - Self.maximumPending)
            if over > 0 { state.queue.removeFirst(over) }
            if state.drain == nil {
                // Unstructured because the write outlives the request that caused it, by design. Owned all the
                // same: kept in `drain` and awaited by flush(), which ends it with `giveUpAt` rather than cancelling
                // it (a cancelled Task.sleep would turn the pauses between retries into a busy loop).
                state.drain = Task { [self] in await drainQueue() }
            }
            return over
        }
        if dropped > 0 {
            warnings.report(
                "the cache \(store.description.location) is behind: \(dropped) fetched bodies were not kept on disk")
        }
    }

    /// Waits until everything scheduled so far is written, or the store has kept failing for ``flushPatience``.
    func flush() async {
        // A store already known to be down gets a last second, not the whole patience: the exit is not held up
        // by an outage that was warned about.
        let patience = warnings.isFailing ? .seconds(1) : Self.flushPatience
        state.withLockedValue { $0.giveUpAt = .now + patience }
        while let drain = state.withLockedValue({ $0.drain }) {
            await drain.value
        }
    }

    private func drainQueue() async {
        var failures = 0
        while true {
            let pause = failures == 0 ? Self.gathering : Self.retryDelays[min(failures, Self.retryDelays.count) - 1]
            try? await Task.sleep(for: pause)
            let batch = state.withLockedValue { state -> [StoredItem] in
                let batch = state.queue
                state.queue = []
                if batch.isEmpty { state.drain = nil }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try await store.storeAll(batch)
                failures = 0
                warnings.succeeded()
            } catch {
                failures += 1
                warnings.failed("the cache \(store.description.location) cannot be written (\(error)); trying again")
                let givingUp = state.withLockedValue { state -> Bool in
                    if let deadline = state.giveUpAt, ContinuousClock.now >= deadline { return true }
                    // Back at the front, before anything scheduled meanwhile: the order of writes is kept.
                    state.queue.insert(contentsOf: batch, at: 0)
                    return false
                }
                if givingUp {
                    let left = state.withLockedValue { state -> Int in
                        let count = state.queue.count
                        state.queue = []
                        state.drain = nil
                        return count
                    }
                    warnings.report("giving up at exit: \(batch.count + left) fetched bodies were not kept on disk")
                    return
                }
            }
        }
    }
}
