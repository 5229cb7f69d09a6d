import BoxOfficeCore
import Crypto
import Foundation
import NIOConcurrencyHelpers
import SQLite
import Synchronization
import TestSupport
import Testing

/// The cache pieces in process: the SQLite store's own rules (the contract both stores keep is StoreContractTests), the caching fetcher over a counting upstream, the quota guard,
/// the per-service bound, and the digest that names posters.
@Suite("Cache, quota and bounds")
struct CacheTests {
    /// Answers every call with a body built from its key (or `body`), counting calls; a gated one answers only once
    /// the test has released it, so calls stay in flight exactly as long as the test needs.
    final class CountingFetcher: Fetcher {
        let calls = Atomic<Int>(0)
        let running = Atomic<Int>(0)
        let mostRunning = Atomic<Int>(0)
        let body: String?
        let origin: Source.Origin
        private let gate: AsyncStream<Void>?
        private let opener: AsyncStream<Void>.Continuation?

        init(body: String? = nil, origin: Source.Origin = .kobis, gated: Bool = false) {
            self.body = body
            self.origin = origin
            if gated {
                let (gate, opener) = AsyncStream<Void>.makeStream()
                (self.gate, self.opener) = (gate, opener)
            } else {
                (gate, opener) = (nil, nil)
            }
        }

        func release() { opener?.finish() }

        func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
            calls.add(1, ordering: .relaxed)
            let now = running.add(1, ordering: .relaxed).newValue
            mostRunning.max(now, ordering: .relaxed)
            defer { running.subtract(1, ordering: .relaxed) }
            if let gate { for await _ in gate {} }
            let text = body ?? #"{"boxOfficeResult":{"key":"\#(call.key)"}}"#
            return Fetched(body: Array(text.utf8), source: Source(origin: origin, fetchedAt: "2026-11-21T01:00:00Z"))
        }
    }

    /// A clock the test moves.
    final class TestClock: Sendable {
        let seconds = NIOLockedValueBox<Double>(1_795_186_800 + 3600)
        var now: @Sendable () -> Double { { self.seconds.withLockedValue { $0 } } }
        func advance(_ by: Double) { seconds.withLockedValue { $0 += by } }
    }

    /// A directory for a store, not created yet (the store creates it); the test removes it.
    static func temporaryDirectory() throws -> TemporaryDirectory {
        try TemporaryDirectory("boxoffice-cache-test", create: false)
    }

    let yesterday = UpstreamCall(
        service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": "20261120", "itemPerPage": "10"])
    let today: @Sendable () -> CalendarDate = { CalendarDate("2026-11-21")! }

    @Test("the SQLite store creates its directory 0700 and database 0600, and a second handle sees the same entries")
    func store() async throws {
        let temporary = try Self.temporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let store = try SQLiteStore(directory: directory)
        let mode = { (path: String) in
            ((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(store.description.location) == 0o600)
        let entry = StoredEntry(
            body: Array("{}".utf8), fetchedAt: 12.5, fetchedDay: CalendarDate("2026-11-21")!, origin: .kobis)
        try await store.storeAll([StoredItem(key: "k", service: .kobis, entry: entry)])
        // A second handle on the same directory (another process) sees the same entries.
        #expect(try await SQLiteStore(directory: directory).entry("k") == entry)
    }

    @Test("a database written by a newer worker is refused with a clear message, not guessed at")
    func newerSchema() async throws {
        let temporary = try Self.temporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        try await SQLiteStore(directory: directory).close()
        let database = directory.appendingPathComponent(SQLiteStore.databaseName).path
        try SQLiteConnection(path: database, busyTimeout: .seconds(5)).execute("PRAGMA user_version = 99")
        do {
            _ = try SQLiteStore(directory: directory)
            Issue.record("a newer schema was accepted")
        } catch let error as StoreError {
            #expect(error.kind == .newerSchema && error.description.contains("schema version 99"))
        }
    }

    @Test("a path that is a file is refused, so the worker can fall back to no cache")
    func unusableDirectory() throws {
        let temporary = try Self.temporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url
        try Data("x".utf8).write(to: file)
        #expect(throws: (any Error).self) { try SQLiteStore(directory: file) }
        #expect(throws: (any Error).self) { try SQLiteStore(directory: file.appendingPathComponent("below")) }
    }

    @Test("hit, expiry, refresh: the upstream is asked only when the entry is missing, stale or refreshed")
    func cachingFetcher() async throws {
        let clock = TestClock()
        let upstream = CountingFetcher()
        let temporary = try Self.temporaryDirectory()
        defer { temporary.remove() }
        let store = try SQLiteStore(directory: temporary.url)
        let fetcher = CachingFetcher(
            upstream, store: store, now: clock.now, today: today, warnings: CacheWarnings { _ in })
        let first = try await fetcher.fetch(yesterday)
        #expect(first.source.origin == .kobis)
        let second = try await fetcher.fetch(yesterday)
        #expect(second.source.origin == .cache && second.body == first.body)
        #expect(upstream.calls.load(ordering: .relaxed) == 1)
        clock.advance(3600)  // yesterday's figures are good for an hour
        _ = try await fetcher.fetch(yesterday)
        #expect(upstream.calls.load(ordering: .relaxed) == 2)
        var refresh = yesterday
        refresh.refresh = true
        #expect(try await fetcher.fetch(refresh).source.origin == .kobis)
        #expect(upstream.calls.load(ordering: .relaxed) == 3)
        #expect(fetcher.statistics.hits == 1 && fetcher.statistics.misses == 3)

        // A new fetcher on the same store (a restarted worker): served from disk, once the writes are flushed.
        await fetcher.flush()
        let restarted = CachingFetcher(
            upstream, store: store, now: clock.now, today: today, warnings: CacheWarnings { _ in })
        #expect(try await restarted.fetch(yesterday).source.origin == .cache)
        #expect(upstream.calls.load(ordering: .relaxed) == 3)
    }

    @Test("prefetch moves a fan-out's stored parts into memory in one query; it never goes upstream")
    func prefetch() async throws {
        let temporary = try Self.temporaryDirectory()
        defer { temporary.remove() }
        let store = try SQLiteStore(directory: temporary.url)
        let upstream = CountingFetcher()
        let first = CachingFetcher(
            upstream, store: store, now: TestClock().now, today: today, warnings: CacheWarnings { _ in })
        let calls = ["20199882", "20210028", "20218764"].map {
            UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": $0])
        }
        for call in calls.prefix(2) { _ = try await first.fetch(call) }
        await first.flush()
        let second = CachingFetcher(
            upstream, store: store, now: TestClock().now, today: today, warnings: CacheWarnings { _ in })
        #expect(calls.allSatisfy { second.inMemory($0) == nil })
        await second.prefetch(calls)
        #expect(
            second.inMemory(calls[0])?.source.origin == .cache && second.inMemory(calls[1])?.source.origin == .cache)
        #expect(second.inMemory(calls[2]) == nil)
        #expect(upstream.calls.load(ordering: .relaxed) == 2)
    }

    @Test("upstream errors sent with HTTP 200 are never cached; fixtures stay fixtures and stay out of the store")
    func whatIsKept() async throws {
        let temporary = try Self.temporaryDirectory()
        defer { temporary.remove() }
        let store = try SQLiteStore(directory: temporary.url)
        let fault = CountingFetcher(body: #"{"faultInfo":{"message":"x","errorCode":"320010"}}"#)
        let faulty = CachingFetcher(
            fault, store: store, now: TestClock().now, today: today, warnings: CacheWarnings { _ in })
        _ = try await faulty.fetch(yesterday)
        _ = try await faulty.fetch(yesterday)
        #expect(fault.calls.load(ordering: .relaxed) == 2)
        #expect(try await store.entry(yesterday.key) == nil)

        let fixtures = CountingFetcher(origin: .fixture)
        let offline = CachingFetcher(
            fixtures, store: store, now: TestClock().now, today: today, warnings: CacheWarnings { _ in })
        _ = try await offline.fetch(yesterday)
        #expect(try await offline.fetch(yesterday).source.origin == .fixture)
        #expect(fixtures.calls.load(ordering: .relaxed) == 1)
        #expect(try await store.entry(yesterday.key) == nil)
    }

    @Test("without a store, the quota is counted in the process")
    func quotaInMemory() async throws {
        let guardian = QuotaGuard(limit: 1, store: nil, worker: "test", today: today, warnings: CacheWarnings { _ in })
        try await guardian.take()
        await #expect(throws: BoxOfficeError.self) { try await guardian.take() }
    }

    @Test("at most `width` calls per service are in flight; the other service is not held up")
    func bounded() async throws {
        let upstream = CountingFetcher(gated: true)
        let fetcher = LimitingFetcher(upstream, perService: 3)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    _ = try? await fetcher.fetch(
                        UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": "\(index)"]))
                }
            }
            // Held at the upstream: three calls in flight, and the other nine held by the bound.
            #expect(await eventually { upstream.running.load(ordering: .relaxed) == 3 })
            #expect(upstream.calls.load(ordering: .relaxed) == 3)
            upstream.release()
        }
        #expect(upstream.calls.load(ordering: .relaxed) == 12)
        #expect(upstream.mostRunning.load(ordering: .relaxed) == 3)
    }

    @Test("poster file names: swift-crypto's SHA-256 in lowercase hex, on the FIPS 180-4 examples")
    func digest() {
        #expect(
            SHA256.hash(data: [UInt8]()).hexadecimal
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hash(data: Array("abc".utf8)).hexadecimal
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
