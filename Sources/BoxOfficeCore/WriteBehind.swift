import Synchronization

/// Writes fetched bodies to the shared store after the answer has gone, in batches.
///
/// A fan-out of twenty parts would otherwise wait for twenty transactions, one after another on SQLite's single
/// writer, before its answer could be written. The memory tier already serves the entries meanwhile; ``flush()``
/// (called at exit) waits until every scheduled entry is on disk, so another process finds it.
final class WriteBehind: Sendable {
    typealias Item = (key: String, service: Service, entry: CacheStore.Entry)

    private struct State: ~Copyable {
        var queue: [Item] = []
        var drain: Task<Void, Never>?
    }

    private let store: CacheStore
    private let warnings: CacheWarnings
    private let state = Mutex(State())

    init(store: CacheStore, warnings: CacheWarnings) {
        self.store = store
        self.warnings = warnings
    }

    func schedule(_ item: Item) {
        state.withLock { state in
            state.queue.append(item)
            guard state.drain == nil else { return }
            // The one unstructured task here: the write outlives the request that caused it, by design.
            state.drain = Task { [self] in await drainQueue() }
        }
    }

    /// Waits until everything scheduled so far is written (or has failed with its one warning).
    func flush() async {
        while let drain = state.withLock({ $0.drain }) {
            await drain.value
        }
    }

    /// How long a batch gathers before it is written: the entries of one fan-out go in one transaction, and the
    /// writes keep out of the way of the quota's, which are on the requests' path.
    static let gathering: Duration = .milliseconds(10)

    private func drainQueue() async {
        while true {
            try? await Task.sleep(for: Self.gathering)
            let batch = state.withLock { state -> [Item] in
                let batch = state.queue
                state.queue = []
                if batch.isEmpty { state.drain = nil }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try await store.storeAll(batch)
            } catch {
                warnings.warn("the cache at \(store.directory.path) cannot be written (\(error)); answers are not kept on disk")
            }
        }
    }
}
