/// Where the shared tier keeps what outlives a process: upstream bodies by call key, the image-URL → poster index
/// (and, where the store is shared across machines, the poster bytes), and the KOBIS quota's leases.
///
/// Two implementations: ``SQLiteStore`` (GRDB, one database in the cache directory, shared by the processes of one
/// machine; the default) and ``PostgresStore`` (postgres-nio, `--database-url`, shared by every machine). Everything
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

    /// Takes a lease of calls from the day's shared budget with one atomic statement; see ``QuotaLedger``.
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

    /// Closes connections (at exit, after the last write).
    func close() async
}

/// Which store, where (redacted).
package struct StoreDescription: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case sqlite, postgres
    }

    package var kind: Kind
    /// The SQLite database's path, or the PostgreSQL URL with its password replaced by `***`.
    package var location: String

    package init(kind: Kind, location: String) {
        self.kind = kind
        self.location = location
    }
}

/// Whether a store works now.
package struct StoreHealth: Sendable, Equatable {
    package var connected: Bool
    /// The schema version the database holds; nil until it was read.
    package var schemaVersion: Int?

    package init(connected: Bool, schemaVersion: Int?) {
        self.connected = connected
        self.schemaVersion = schemaVersion
    }
}

/// One cached upstream body.
package struct StoredEntry: Sendable, Equatable {
    package var body: [UInt8]
    /// Seconds since 1970 (UTC) when it was fetched.
    package var fetchedAt: Double
    /// The KST day it was fetched on (as the worker's calendar saw it): freshness rules are reckoned in days.
    package var fetchedDay: CalendarDate
    package var origin: Source.Origin

    package init(body: [UInt8], fetchedAt: Double, fetchedDay: CalendarDate, origin: Source.Origin) {
        self.body = body
        self.fetchedAt = fetchedAt
        self.fetchedDay = fetchedDay
        self.origin = origin
    }
}

/// An entry on its way to the store.
package struct StoredItem: Sendable {
    package var key: String
    package var service: Service
    package var entry: StoredEntry

    package init(key: String, service: Service, entry: StoredEntry) {
        self.key = key
        self.service = service
        self.entry = entry
    }
}

/// The poster index's view of an image: its digest names the file `posters/<sha256>.<ext>` on every machine.
package struct StoredImage: Sendable, Equatable {
    package var sha256: String
    package var mimeType: String
    package var bytes: Int

    package init(sha256: String, mimeType: String, bytes: Int) {
        self.sha256 = sha256
        self.mimeType = mimeType
        self.bytes = bytes
    }
}

/// A worker asking for calls.
package struct LeaseRequest: Sendable {
    package var service: Service
    package var day: CalendarDate
    /// Who holds the lease: host, process and a random part, so two workers never share one.
    package var worker: String
    /// The most calls wanted; near the limit fewer are granted (down to one).
    package var wanted: Int
    package var limit: Int
    /// How long the lease holds, by the database's clock; after that its unspent calls may be reclaimed.
    package var seconds: Double

    package init(service: Service, day: CalendarDate, worker: String, wanted: Int, limit: Int, seconds: Double) {
        self.service = service
        self.day = day
        self.worker = worker
        self.wanted = wanted
        self.limit = limit
        self.seconds = seconds
    }
}

/// What a lease request got.
package struct LeaseGrant: Sendable, Equatable {
    /// The lease's id, for ``BoxOfficeStore/spend(lease:count:)``; nil when nothing was granted.
    package var lease: Int64?
    package var granted: Int
    /// The day's shared count after the grant: calls made and calls leased but not yet made.
    package var allotted: Int

    package init(lease: Int64?, granted: Int, allotted: Int) {
        self.lease = lease
        self.granted = granted
        self.allotted = allotted
    }
}

/// A day's shared quota figures.
package struct QuotaCount: Sendable, Equatable {
    /// Calls made and calls leased but not yet made: what the limit is checked against.
    package var allotted: Int
    /// Calls recorded as made.
    package var spent: Int

    package init(allotted: Int, spent: Int) {
        self.allotted = allotted
        self.spent = spent
    }
}
