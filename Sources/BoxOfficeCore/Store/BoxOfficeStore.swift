/// Where the shared tier keeps what outlives a process: upstream bodies by call key, the image-URL → poster index
/// (and, where the store is shared across machines, the poster bytes), and the KOBIS quota's leases.
///
/// Two implementations: ``SQLiteStore`` (SQLite's C API, one database in the cache directory, shared by the processes
/// of one machine; the default) and ``PostgresStore`` (libpq, `--database-url`, shared by every machine). Everything
/// above — freshness, the memory tier, coalescing, write-behind, the quota's local spending — is the same for both.
///
/// Every method may throw: a store that fails is never the reason a request fails. The callers warn once per outage
/// (``CacheWarnings``) and go on without it.
package protocol BoxOfficeStore: Sendable {
    /// What the store is and where, with any password redacted: for messages and `worker.status`.
    var description: StoreDescription { get }

    /// Whether the store answers now, and its schema version; never waits long (it does not reconnect to find out
    /// more than once per backoff period).
    func health() async -> StoreHealth

    func entry(_ key: String) async throws -> StoredEntry?
    /// The entries kept for `keys`, in one query (a fan-out's parts).
    func entries(_ keys: [String]) async throws -> [String: StoredEntry]
    /// Stores several entries in one transaction (the write-behind queue's batches); a key written again replaces
    /// the entry.
    func storeAll(_ items: [StoredItem]) async throws

    /// The poster index's entry for an image URL.
    func image(_ url: String) async throws -> StoredImage?
    /// The bytes of the image with this digest, when the store keeps them (PostgreSQL does, so a second machine
    /// makes no image request; SQLite keeps them as the files of the cache directory and answers nil).
    func imageBytes(sha256: String) async throws -> [UInt8]?
    /// Indexes `url` → `image`, and keeps `bytes` where the store keeps image bytes.
    func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws

    /// Takes a lease of calls from the day's shared budget with one atomic statement; see ``QuotaGuard``.
    func takeLease(_ request: LeaseRequest) async throws -> LeaseGrant
    /// Records that `count` calls of lease `lease` were made. False when the lease was reclaimed meanwhile (its
    /// holder let it expire): the caller then records the calls with ``recordCalls(_:day:worker:count:)``.
    func spend(lease: Int64, count: Int) async throws -> Bool
    /// Gives the unspent calls of leases back to the day's budget: `worker`'s own (at exit), or, with nil, those of
    /// every lease past its expiry (workers that died holding one). Returns how many calls came back.
    @discardableResult
    func giveBack(_ service: Service, day: CalendarDate, worker: String?) async throws -> Int
    /// Adds calls made without a lease (counted in the process while the store was unreachable) to the day's count:
    /// the reconciliation after an outage. The count may then pass the limit; it never hides a call made.
    func recordCalls(_ service: Service, day: CalendarDate, worker: String, count: Int) async throws
    /// The day's shared figures.
    func quotaCount(_ service: Service, day: CalendarDate) async throws -> QuotaCount

    /// Closes the store (at exit, after the last write): SQLite closes its connections; PostgreSQL ends the pool's
    /// ``PostgresStore/run()``, which its owner's task group then waits for.
    func close() async
}
