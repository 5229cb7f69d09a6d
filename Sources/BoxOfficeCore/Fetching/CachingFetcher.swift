import FoundationEssentials
import Glibc
import JSONCore
import NIOConcurrencyHelpers
import Synchronization

/// The cache in front of any other fetcher: memory first, then the shared store (SQLite or PostgreSQL), then upstream.
///
/// - A fresh entry (``Freshness``) is served with `source.origin` `cache` (fixtures keep their own source: they are
///   recordings either way). `refresh` skips both tiers, goes upstream and rewrites the entry.
/// - Only bodies that can be answers are kept: JSON objects without a KOBIS `faultInfo`. Errors are never cached.
/// - Fixture bodies stay in memory only: writing them to the shared store would serve recordings to live workers.
/// - A store that fails (read-only, full, removed) is warned about once and then left out: never a failed request.
/// - New bodies reach the store shortly after the answer (``WriteBehind``), in batches; ``flush()`` at exit.
package final class CachingFetcher: Fetcher {
    private let inner: any Fetcher
    private let store: (any BoxOfficeStore)?
    private let writer: WriteBehind?
    private let memory: MemoryCache
    private let now: @Sendable () -> Double
    private let today: @Sendable () -> CalendarDate
    private let warnings: CacheWarnings
    /// Keys a prefetch just asked the store for and did not find, with when: the parts' own fetches, a moment
    /// later, go upstream without asking the store again (twenty lookups at once would otherwise queue on the
    /// store's few connections, on the fan-out's path).
    private let knownAbsent = NIOLockedValueBox<[String: ContinuousClock.Instant]>([:])
    private static let absenceHolds: Duration = .seconds(2)
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    /// Whether a fetched body may be kept (``UsableBody/check(_:_:)`` in the worker): one that cannot be read as its
    /// call's answer is handed on, never kept.
    private let usable: @Sendable (UpstreamCall, Fetched) -> Bool

    package init(
        _ inner: any Fetcher, store: (any BoxOfficeStore)?, memoryCapacity: Int = 256,
        now: @escaping @Sendable () -> Double, today: @escaping @Sendable () -> CalendarDate, warnings: CacheWarnings,
        usable: @escaping @Sendable (UpstreamCall, Fetched) -> Bool = { _, _ in true }
    ) {
        self.usable = usable
        self.inner = inner
        self.store = store
        writer = store.map { WriteBehind(store: $0, warnings: warnings) }
        memory = MemoryCache(capacity: memoryCapacity)
        self.now = now
        self.today = today
        self.warnings = warnings
    }

    /// Answers served from the cache, and calls that went past it, since start.
    package var statistics: (hits: Int, misses: Int) {
        (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed))
    }

    /// Waits until every fetched body is in the shared store; call before exiting.
    package func flush() async {
        await writer?.flush()
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        try await fetch(call, memoryCheckedAt: nil)
    }

    /// Fetches `call` through the tiers. `memoryCheckedAt`: the ``memoryGeneration`` when the caller looked in
    /// memory (``inMemory(_:)``) and missed; unless a body was stored since, memory is not asked again.
    package func fetch(_ call: UpstreamCall, memoryCheckedAt: UInt64?) async throws(BoxOfficeError) -> Fetched {
        let key = call.key
        if !call.refresh, let hit = await cached(call, key: key, memoryCheckedAt: memoryCheckedAt) {
            hits.add(1, ordering: .relaxed)
            return hit
        }
        misses.add(1, ordering: .relaxed)
        guard let coalescer = inner as? CoalescingFetcher else { return keep(call, try await inner.fetch(call)) }
        return try await coalescer.fetch(
            call, kept: { call.refresh ? nil : self.inMemory(call, key: key) }, keeping: { self.keep(call, $0) })
    }

    /// Keeps an upstream answer that is one (in memory, and written behind to the store); the answer with what its
    /// check decoded. Run inside the coalescer's shared call, so it is kept before that call ends.
    private func keep(_ call: UpstreamCall, _ fetched: Fetched) -> Fetched {
        let key = call.key
        // What the check decodes is kept with the body (one decoding for the check and the answers).
        let derived = DerivedValues()
        guard let document = fetched.document ?? (try? JSONParser.parseBody(fetched.body)),
            Self.isAnswer(document, call),
            usable(call, Fetched(body: fetched.body, source: fetched.source, document: document, derived: derived))
        else {
            return fetched
        }
        let entry = StoredEntry(
            body: fetched.body, fetchedAt: now(), fetchedDay: today(), origin: fetched.source.origin)
        let servedAs =
            fetched.source.origin == .fixture
            ? fetched.source : Source(origin: .cache, fetchedAt: fetched.source.fetchedAt)
        memory.store(key, entry, source: servedAs, document: document, derived: derived)
        if fetched.source.origin != .fixture, let writer {
            writer.schedule(StoredItem(key: key, service: call.service, entry: entry))
        }
        return Fetched(body: fetched.body, source: fetched.source, document: document, derived: derived)
    }

    /// A number that changes whenever the memory tier takes a new body. Read before ``inMemory(_:)``, it tells the
    /// later ``fetch(_:memoryCheckedAt:)`` whether looking in memory again can find anything new.
    package var memoryGeneration: UInt64 { memory.generation }

    /// The answer when it is fresh in the memory tier, without waiting for anything; nil otherwise. The
    /// synchronous half of a request: a method answers on the spot when this finds the body.
    package func inMemory(_ call: UpstreamCall) -> Fetched? {
        guard !call.refresh, let hit = inMemory(call, key: call.key) else { return nil }
        hits.add(1, ordering: .relaxed)
        return hit
    }

    /// Moves the fresh stored entries of `calls` into memory with one query, so a fan-out's twenty parts do not make
    /// twenty lookups one after another on the store's single connection.
    package func prefetch(_ calls: [UpstreamCall]) async {
        guard let store else { return }
        let wanted = calls.filter { !$0.refresh && inMemory($0, key: $0.key) == nil }
        guard !wanted.isEmpty else { return }
        let found: [String: StoredEntry]
        do {
            found = try await store.entries(wanted.map(\.key))
        } catch {
            warnings.failed("the cache \(store.description.location) cannot be read (\(error)); going upstream")
            return
        }
        let now = ContinuousClock.now
        knownAbsent.withLockedValue { absent in
            absent = absent.filter { now - $0.value < Self.absenceHolds }
            for call in wanted where found[call.key] == nil { absent[call.key] = now }
        }
        for call in wanted {
            if let stored = found[call.key] { admit(call, stored) }
        }
    }

    /// Puts a stored entry into memory when it is fresh (its body is parsed on its first hit); false when stale.
    @discardableResult
    private func admit(_ call: UpstreamCall, _ stored: StoredEntry) -> Bool {
        guard
            Freshness.isFresh(
                call, fetchedAt: stored.fetchedAt, fetchedDay: stored.fetchedDay, now: now(), body: stored.body)
        else {
            return false
        }
        let source = Source(
            origin: .cache, fetchedAt: UTCTimestamp.string(secondsSince1970: stored.fetchedAt))
        memory.store(call.key, stored, source: source, document: nil)
        return true
    }

    private func inMemory(_ call: UpstreamCall, key: String) -> Fetched? {
        guard let found = memory.entry(key),
            Freshness.isFresh(
                call, fetchedAt: found.entry.fetchedAt, fetchedDay: found.entry.fetchedDay, now: now(),
                body: found.entry.body)
        else { return nil }
        var document = found.document
        if document == nil, let parsed = try? JSONParser.parseBody(found.entry.body) {
            memory.remember(key, document: parsed)
            document = parsed
        }
        return Fetched(body: found.entry.body, source: found.source, document: document, derived: found.derived)
    }

    private func cached(_ call: UpstreamCall, key: String, memoryCheckedAt: UInt64?) async -> Fetched? {
        let askedAlready = memoryCheckedAt.map { $0 == memory.generation } ?? false
        if !askedAlready, let hit = inMemory(call, key: key) { return hit }
        guard let store else { return nil }
        let absentJustNow = knownAbsent.withLockedValue { absent -> Bool in
            guard let at = absent.removeValue(forKey: key) else { return false }
            return ContinuousClock.now - at < Self.absenceHolds
        }
        if absentJustNow { return nil }
        let stored: StoredEntry?
        do {
            stored = try await store.entry(key)
        } catch {
            warnings.failed("the cache \(store.description.location) cannot be read (\(error)); going upstream")
            return nil
        }
        guard let stored, admit(call, stored) else { return nil }
        return inMemory(call, key: key)
    }

    /// Whether a body is an answer worth keeping rather than an upstream error sent with HTTP 200.
    static func isAnswer(_ document: JSONValue, _ call: UpstreamCall) -> Bool {
        guard let object = document.objectValue else { return false }
        switch call.service {
        case .kobis: return object["faultInfo"] == nil
        case .kakao: return object["documents"] != nil
        }
    }
}
