import BoxOfficeCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// The contract every store keeps, run against both: SQLite in a temporary directory, and PostgreSQL at
/// `BOXOFFICE_TEST_DATABASE_URL` (the throwaway cluster `scripts/test` starts with clients/testing/postgres_cluster.py).
///
/// The PostgreSQL cases share one database, so each test works under keys and a KST day of its own.
@Suite("Store contract (SQLite and PostgreSQL)")
struct StoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// Runs `body` on a fresh store of `kind`, then closes it and removes what it wrote; does nothing (with the
    /// reason printed) when PostgreSQL was not started for this run. PostgreSQL's pool runs beside `body` in a task
    /// group, as it runs beside a session, until `close()` ends it.
    static func withStore(_ kind: Kind, _ body: (any BoxOfficeStore) async throws -> Void) async throws {
        let directory = try TemporaryDirectory("boxoffice-store-test", create: false)
        defer { directory.remove() }
        guard let store = try open(kind, directory: directory.url) else { return }
        try await withThrowingDiscardingTaskGroup { group in
            if let postgres = store as? PostgresStore {
                group.addTask { await postgres.run() }
            }
            do {
                try await body(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// A fresh store of `kind` (SQLite in `directory`), or nil when PostgreSQL was not started for this run.
    private static func open(_ kind: Kind, directory: URL) throws -> (any BoxOfficeStore)? {
        switch kind {
        case .sqlite:
            return try SQLiteStore(directory: directory)
        case .postgres:
            guard let text = ProcessInfo.processInfo.environment["BOXOFFICE_TEST_DATABASE_URL"] else {
                print("skipped for PostgreSQL: BOXOFFICE_TEST_DATABASE_URL is not set (scripts/test starts a cluster)")
                return nil
            }
            // scripts/sanitize stretches the store's deadlines: sanitized code is several times slower.
            let patience = ProcessInfo.processInfo.environment["BOXOFFICE_TEST_STORE_PATIENCE"].flatMap { Int($0) }
            return try PostgresStore(url: DatabaseURL(text), patience: patience ?? 1)
        }
    }

    /// A KST day no other test uses.
    static func uniqueDay() -> CalendarDate {
        CalendarDate(
            "\(Int.random(in: 2030...2099))-\(String(format: "%02d", Int.random(in: 1...12)))-\(String(format: "%02d", Int.random(in: 1...28)))"
        )!
    }

    /// The sizes of the leases `worker` gets, asking for ten at a time, until the store grants none (which must
    /// come without a lease id). The leases last an hour: a sanitized run on a loaded machine once took over a minute
    /// here, and expired leases were reclaimed and granted again.
    static func leasesUntilSpent(_ store: any BoxOfficeStore, day: CalendarDate, worker: String, limit: Int)
        async throws -> [Int]
    {
        var sizes: [Int] = []
        while true {
            let grant = try await store.takeLease(
                LeaseRequest(service: .kobis, day: day, worker: worker, wanted: 10, limit: limit, seconds: 3600))
            guard grant.granted > 0 else {
                #expect(grant.lease == nil && grant.allotted == limit)
                return sizes
            }
            sizes.append(grant.granted)
        }
    }

    @Test(
        "entries round-trip, a second write replaces, a missing key is nil, several come back in one query",
        arguments: Kind.allCases)
    func entries(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let prefix = UUID().uuidString
            let day = CalendarDate("2026-11-21")!
            let first = StoredEntry(body: Array(#"{"a":1}"#.utf8), fetchedAt: 12.5, fetchedDay: day, origin: .kobis)
            let second = StoredEntry(body: [0, 255, 10, 13], fetchedAt: 13.25, fetchedDay: day, origin: .kobis)
            try await store.storeAll([
                StoredItem(key: prefix + "a", service: .kobis, entry: first),
                StoredItem(key: prefix + "b", service: .kakao, entry: second),
            ])
            #expect(try await store.entry(prefix + "a") == first)
            #expect(try await store.entry(prefix + "missing") == nil)
            let both = try await store.entries([prefix + "a", prefix + "b", prefix + "c"])
            #expect(both.count == 2 && both[prefix + "b"] == second)
            var replaced = first
            replaced.body = Array("{}".utf8)
            try await store.storeAll([StoredItem(key: prefix + "a", service: .kobis, entry: replaced)])
            #expect(try await store.entry(prefix + "a") == replaced)
            #expect(await store.health().connected)
        }
    }

    @Test(
        "the poster index maps a URL to its digest; PostgreSQL keeps the bytes for other machines, SQLite does not",
        arguments: Kind.allCases)
    func images(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let url = "https://images.example/\(UUID().uuidString).jpg"
            let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]
            let image = StoredImage(
                sha256: String(repeating: "ab", count: 32), mimeType: "image/jpeg", bytes: bytes.count)
            #expect(try await store.image(url) == nil)
            try await store.storeImage(url, image, bytes: bytes)
            try await store.storeImage(url, image, bytes: bytes)  // a second machine saving the same image
            #expect(try await store.image(url) == image)
            let kept = try await store.imageBytes(sha256: image.sha256)
            #expect(kept == (kind == .postgres ? bytes : nil))
        }
    }

    @Test(
        "leases shrink near the limit (a quarter of what is left, at least one) and stop exactly at it",
        arguments: Kind.allCases)
    func leasesShrink(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let day = Self.uniqueDay()
            let sizes = try await Self.leasesUntilSpent(store, day: day, worker: "w", limit: 25)
            #expect(sizes == [6, 4, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1])
            #expect(try await store.quotaCount(.kobis, day: day) == QuotaCount(allotted: 25, spent: 0))
        }
    }

    @Test("eight workers asking at once never pass the limit: the grants sum to it exactly", arguments: Kind.allCases)
    func concurrentLeases(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let day = Self.uniqueDay()
            let granted = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        try await Self.leasesUntilSpent(store, day: day, worker: "w\(worker)", limit: 97).reduce(0, +)
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(granted == 97)
            #expect(try await store.quotaCount(.kobis, day: day).allotted == 97)
        }
    }

    @Test(
        "spends are recorded; giving back at exit returns only the unspent part; a spend past the lease is refused",
        arguments: Kind.allCases)
    func spendAndGiveBack(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let day = Self.uniqueDay()
            let grant = try await store.takeLease(
                LeaseRequest(service: .kobis, day: day, worker: "a", wanted: 10, limit: 2950, seconds: 60))
            #expect(grant.granted == 10)
            let lease = try #require(grant.lease)
            #expect(try await store.spend(lease: lease, count: 3))
            #expect(try await !store.spend(lease: lease, count: 8))
            #expect(try await store.giveBack(.kobis, day: day, worker: "someone else") == 0)
            #expect(try await store.giveBack(.kobis, day: day, worker: "a") == 7)
            #expect(try await store.giveBack(.kobis, day: day, worker: "a") == 0)
            #expect(try await store.quotaCount(.kobis, day: day) == QuotaCount(allotted: 3, spent: 3))
            // Calls made while the store was away are added even past the limit: a call made is never hidden.
            try await store.recordCalls(.kobis, day: day, worker: "a", count: 2)
            #expect(try await store.quotaCount(.kobis, day: day) == QuotaCount(allotted: 5, spent: 5))
        }
    }

    @Test(
        "a lease left by a dead worker comes back after its expiry: the next worker can spend those calls",
        arguments: Kind.allCases)
    func expiredLeaseReclaimed(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let day = Self.uniqueDay()
            // A lease already past its expiry (as the store's clock sees it), and one that holds for an hour: time
            // is not waited for, so a loaded machine cannot change the outcome.
            let dead = try await store.takeLease(
                LeaseRequest(service: .kobis, day: day, worker: "dead", wanted: 10, limit: 40, seconds: -1))
            let alive = try await store.takeLease(
                LeaseRequest(service: .kobis, day: day, worker: "alive", wanted: 10, limit: 40, seconds: 3600))
            #expect(dead.granted == 10 && alive.granted == 7)
            #expect(try await store.spend(lease: try #require(dead.lease), count: 1))
            #expect(try await store.spend(lease: try #require(alive.lease), count: 1))
            let filled = try await Self.leasesUntilSpent(store, day: day, worker: "next", limit: 40).reduce(0, +)
            #expect(
                filled == 23 + 9, "the budget left, then the expired lease's nine unspent calls; never the live one's")
            #expect(try await store.quotaCount(.kobis, day: day) == QuotaCount(allotted: 40, spent: 2))
        }
    }

    @Test(
        "quota guards over one store: concurrent takes in four workers make exactly the limit, then quota_exhausted",
        arguments: Kind.allCases)
    func guardsSpendExactly(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let day = Self.uniqueDay()
            let guards = (0..<4).map { index in
                QuotaGuard(
                    limit: 25, store: store, worker: "g\(index)", today: { day }, warnings: CacheWarnings { _ in })
            }
            let made = await withTaskGroup(of: Int.self) { group in
                for quota in guards {
                    for _ in 0..<10 {
                        group.addTask {
                            var made = 0
                            while (try? await quota.take()) != nil { made += 1 }
                            return made
                        }
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(made == 25)
            do throws(BoxOfficeError) {
                try await guards[0].take()
                Issue.record("a call past the limit was allowed")
            } catch {
                #expect(error.reason == .quotaExhausted && error.limit == 25 && error.resetsAt == "\(day)T15:00:00Z")
            }
            for quota in guards { await quota.release() }
            let count = try await store.quotaCount(.kobis, day: day)
            #expect(count == QuotaCount(allotted: 25, spent: 25))
            let status = await guards[1].status()
            #expect(status.used == 25 && status.remaining == 0 && !status.countingInProcess)
        }
    }

    @Test("a guard gives its unspent lease back at exit, so another worker can spend it", arguments: Kind.allCases)
    func guardReleases(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let day = Self.uniqueDay()
            let first = QuotaGuard(
                limit: 12, store: store, worker: "first", today: { day }, warnings: CacheWarnings { _ in })
            let second = QuotaGuard(
                limit: 12, store: store, worker: "second", today: { day }, warnings: CacheWarnings { _ in })
            try await first.take()
            #expect(first.known.used == 1)
            await first.release()
            var made = 0
            while (try? await second.take()) != nil { made += 1 }
            #expect(made == 11)
            await second.release()
            #expect(try await store.quotaCount(.kobis, day: day) == QuotaCount(allotted: 12, spent: 12))
        }
    }
}
