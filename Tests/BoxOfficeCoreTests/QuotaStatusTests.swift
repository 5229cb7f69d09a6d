import BoxOfficeCore
import Foundation
import TestSupport
import Testing

/// `worker.status` asks the store for the day's shared quota count with a little patience; a store stuck on a read
/// that ignores cancellation (a connection whose peer vanished) must not hold it past that patience.
@Suite("Quota status against a stuck store")
struct QuotaStatusTests {
    /// The SQLite store in a folder of the test's own, except that the quota count never answers and ignores
    /// cancellation.
    struct StuckStore: BoxOfficeStore {
        let inner: SQLiteStore
        var description: StoreDescription { inner.description }
        func health() async -> StoreHealth { await inner.health() }
        func entry(_ key: String) async throws -> StoredEntry? { try await inner.entry(key) }
        func entries(_ keys: [String]) async throws -> [String: StoredEntry] { try await inner.entries(keys) }
        func storeAll(_ items: [StoredItem]) async throws { try await inner.storeAll(items) }
        func image(_ url: String) async throws -> StoredImage? { try await inner.image(url) }
        func imageBytes(sha256: String) async throws -> [UInt8]? { try await inner.imageBytes(sha256: sha256) }
        func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws {
            try await inner.storeImage(url, image, bytes: bytes)
        }
        func takeLease(_ request: LeaseRequest) async throws -> LeaseGrant { try await inner.takeLease(request) }
        func spend(lease: Int64, count: Int) async throws -> Bool { try await inner.spend(lease: lease, count: count) }
        func giveBack(_ service: Service, day: CalendarDate, worker: String?) async throws -> Int {
            try await inner.giveBack(service, day: day, worker: worker)
        }
        func recordCalls(_ service: Service, day: CalendarDate, worker: String, count: Int) async throws {
            try await inner.recordCalls(service, day: day, worker: worker, count: count)
        }
        func quotaCount(_ service: Service, day: CalendarDate) async throws -> QuotaCount {
            // Never resumed: a read stuck in a socket, deaf to cancellation.
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return try await inner.quotaCount(service, day: day)
        }
        func close() async { await inner.close() }
    }

    /// Before ``Deadline``, a task group waited for the stuck read for ever: the time limit fails such a run.
    @Test("the figures come back after the patience, the ones this worker knows", .timeLimit(.minutes(1)))
    func stuckStore() async throws {
        try await withTemporaryDirectory("boxoffice-quota-status") { directory in
            let store = StuckStore(inner: try SQLiteStore(directory: directory.url))
            let day = try #require(CalendarDate(year: 2024, month: 1, day: 10))
            let quota = QuotaGuard(
                limit: 5, store: store, worker: "test", today: { day }, warnings: CacheWarnings { _ in })
            let status = await quota.status(patience: .milliseconds(100))
            #expect(status.limit == 5 && status.used == 0 && status.day == day)
            await store.close()
        }
    }
}
