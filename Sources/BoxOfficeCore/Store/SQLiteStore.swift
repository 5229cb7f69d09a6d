package import Foundation
import GRDB

/// The embedded store: one SQLite database (WAL) in the cache directory, used by every worker process on the
/// machine at once.
///
/// SQLite serialises writers; every write here is one transaction begun `IMMEDIATE` (the write lock taken at once,
/// so a transaction never fails to upgrade from reading to writing when another process wrote meanwhile), and a
/// busy timeout lets concurrent processes wait their turn. Bodies are stored raw and decoded again on every read,
/// so a fix in decoding heals old entries. Poster bytes are the files of the cache directory, not rows.
package final class SQLiteStore: BoxOfficeStore {
    package static let databaseName = "cache.sqlite"

    /// The cache directory.
    package let directory: URL
    package let description: StoreDescription
    /// The writing connection, serialized by GRDB. A pool opens reader connections lazily, and opening one (a few
    /// milliseconds) landed on the first requests' paths; every statement here takes microseconds, so a single
    /// connection in WAL mode (other processes still read while one writes) is the faster choice.
    private let writer: DatabaseQueue
    /// A second, read-only connection, opened with the first: in WAL mode a reader never waits for a writer, so
    /// lookups (and `worker.status`) go on while a write of this process waits for another process's lock.
    private let reader: DatabaseQueue
    private let schemaVersion: Int

    /// Opens (creating on first use) the cache in `directory`: the directory with mode 0700, the database with 0600
    /// (SQLite gives its `-wal` and `-shm` files the database file's mode), and brings its schema up to date.
    ///
    /// - Throws: ``StoreError`` with kind `newerSchema` when the database was written by a newer worker.
    /// - Parameter allowShared: see ``CacheDirectory/prepare(_:allowShared:)``.
    package init(directory: URL, allowShared: Bool = false) throws {
        self.directory = directory
        try CacheDirectory.prepare(directory, allowShared: allowShared)
        let path = directory.appendingPathComponent(Self.databaseName).path
        description = StoreDescription(kind: .sqlite, location: path)

        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.journalMode = .wal
        configuration.label = "boxoffice-cache"
        // WAL with synchronous=NORMAL: commits do not wait for fsync (only a power cut can lose the latest
        // entries, and this is a cache). With FULL, every upstream answer paid a disk flush before it was returned.
        configuration.prepareDatabase { database in
            try database.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        try Self.createIfMissing(path, configuration: configuration)
        let writer = try DatabaseQueue(path: path, configuration: configuration)
        self.writer = writer
        schemaVersion = try writer.writeWithoutTransaction { database in
            try database.inImmediateTransaction { try SQLiteSchema.migrate(database) }
        }
        var readOnly = configuration
        readOnly.readonly = true
        readOnly.label = "boxoffice-cache-reader"
        readOnly.journalMode = .default
        reader = try DatabaseQueue(path: path, configuration: readOnly)
    }

    /// Creates the database when there is none, already in WAL mode, so that no process ever switches a database
    /// another one has open.
    ///
    /// Switching to WAL (`PRAGMA journal_mode`) upgrades a read lock to the write lock, and SQLite fails that upgrade
    /// at once with SQLITE_BUSY when another process opens the same new database at that instant: it does not call
    /// the busy handler there, so the busy timeout cannot cover it (four workers starting on an empty directory met
    /// it). The way out used to be a retry loop that slept on a thread of Swift's cooperative pool; instead the new
    /// database is made under a name of its own (mode 0600: SQLite gives its `-wal` and `-shm` files the database
    /// file's mode), switched there, and linked into place. `link` never replaces a file: of two workers creating the
    /// cache at once, the first to link wins and the other opens its database. Opening a database already in WAL
    /// mode switches nothing, and every later step (the migration's `IMMEDIATE` transaction) waits for its lock
    /// through the busy timeout.
    private static func createIfMissing(_ path: String, configuration: Configuration) throws {
        let existing = open(path, O_RDWR | O_CLOEXEC)
        if existing >= 0 {
            Glibc.close(existing)
            return
        }
        guard errno == ENOENT else { throw StoreError("cannot open \(path): \(String(cString: strerror(errno)))") }
        let fresh = "\(path).\(UInt64.random(in: 0...UInt64.max)).new"
        let descriptor = open(fresh, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError("cannot create \(fresh): \(String(cString: strerror(errno)))") }
        Glibc.close(descriptor)
        // The private name goes in every case; after the link the database lives on under `path`.
        defer {
            for suffix in ["", "-wal", "-shm"] { unlink(fresh + suffix) }
        }
        try DatabaseQueue(path: fresh, configuration: configuration).close()
        guard link(fresh, path) == 0 || errno == EEXIST else {
            throw StoreError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes the database (at exit, after the last write): SQLite folds the WAL back into the database file.
    package func close() async {
        try? reader.close()
        try? writer.close()
    }

    package func health() async -> StoreHealth {
        StoreHealth(connected: true, schemaVersion: schemaVersion)
    }

    // The async forms run on GRDB's own queues: a request waiting for SQLite never holds one of the few threads
    // of Swift's cooperative pool, which the rest of a fan-out needs.

    package func entry(_ key: String) async throws -> StoredEntry? {
        try await reader.read { database in
            try Row.fetchOne(
                database, sql: "SELECT body, fetchedAt, fetchedDay, origin FROM upstream WHERE key = ?",
                arguments: [key]
            ).flatMap(Self.entry)
        }
    }

    package func entries(_ keys: [String]) async throws -> [String: StoredEntry] {
        guard !keys.isEmpty else { return [:] }
        return try await reader.read { database in
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ",")
            var found: [String: StoredEntry] = [:]
            for row in try Row.fetchAll(
                database, sql: "SELECT key, body, fetchedAt, fetchedDay, origin FROM upstream WHERE key IN (\(marks))",
                arguments: StatementArguments(keys))
            {
                if let entry = Self.entry(row) { found[row["key"]] = entry }
            }
            return found
        }
    }

    private static func entry(_ row: Row) -> StoredEntry? {
        let data: Data = row["body"]
        guard let day = CalendarDate(row["fetchedDay"] as String), let origin = Source.Origin(rawValue: row["origin"])
        else { return nil }
        return StoredEntry(body: Array(data), fetchedAt: row["fetchedAt"], fetchedDay: day, origin: origin)
    }

    package func storeAll(_ items: [StoredItem]) async throws {
        try await write { database in
            for item in items {
                try database.execute(
                    sql:
                        "INSERT OR REPLACE INTO upstream (key, service, body, fetchedAt, fetchedDay, origin) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        item.key, item.service.rawValue, Data(item.entry.body), item.entry.fetchedAt,
                        item.entry.fetchedDay.description, item.entry.origin.rawValue,
                    ]
                )
            }
        }
    }

    package func image(_ url: String) async throws -> StoredImage? {
        try await reader.read { database in
            try Row.fetchOne(
                database, sql: "SELECT mimeType, bytes, sha256 FROM images WHERE url = ?", arguments: [url]
            )
            .map { StoredImage(sha256: $0["sha256"], mimeType: $0["mimeType"], bytes: $0["bytes"]) }
        }
    }

    /// Nil: on one machine the bytes are the files of the cache directory.
    package func imageBytes(sha256: String) async throws -> [UInt8]? { nil }

    package func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws {
        try await write { database in
            try database.execute(
                sql: "INSERT OR REPLACE INTO images (url, file, mimeType, bytes, sha256) VALUES (?, ?, ?, ?, ?)",
                arguments: [url, PosterFile.relativePath(image), image.mimeType, image.bytes, image.sha256]
            )
        }
    }

    // MARK: Quota

    package func takeLease(_ request: LeaseRequest) async throws -> LeaseGrant {
        guard request.limit > 0, request.wanted > 0 else { return LeaseGrant(lease: nil, granted: 0, allotted: 0) }
        return try await write { database in
            if let grant = try Self.grant(request, database) { return grant }
            // The budget looks spent: take back what dead workers left in expired leases, then ask once more.
            if try Self.giveBack(request.service, day: request.day, worker: nil, database) > 0,
                let grant = try Self.grant(request, database)
            {
                return grant
            }
            let allotted = try Self.count(request.service, request.day, database).allotted
            return LeaseGrant(lease: nil, granted: 0, allotted: allotted)
        }
    }

    /// The atomic grant: one upsert of the day's row that adds the lease to its count only while the count is
    /// under the limit, then the lease's own row. The size shrinks near the limit (a quarter of what is left, at
    /// least one) so that every worker of a fleet still gets calls until the budget is spent exactly.
    private static func grant(_ request: LeaseRequest, _ database: Database) throws -> LeaseGrant? {
        guard
            let row = try Row.fetchOne(
                database,
                sql: """
                    INSERT INTO quota_days AS q (service, day, allotted, lastGrant)
                    VALUES (:service, :day, MIN(:wanted, :limit, MAX(1, :limit / 4)), MIN(:wanted, :limit, MAX(1, :limit / 4)))
                    ON CONFLICT (service, day) DO UPDATE SET
                        lastGrant = MIN(:wanted, :limit - q.allotted, MAX(1, (:limit - q.allotted) / 4)),
                        allotted = q.allotted + MIN(:wanted, :limit - q.allotted, MAX(1, (:limit - q.allotted) / 4))
                    WHERE q.allotted < :limit
                    RETURNING lastGrant, allotted
                    """,
                arguments: [
                    "service": request.service.rawValue, "day": request.day.description, "wanted": request.wanted,
                    "limit": request.limit,
                ])
        else { return nil }
        let granted: Int = row["lastGrant"]
        try database.execute(
            sql: """
                INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expiresAt)
                VALUES (?, ?, ?, ?, 0, 0, \(now) + ?)
                """,
            arguments: [request.service.rawValue, request.day.description, request.worker, granted, request.seconds])
        return LeaseGrant(lease: database.lastInsertedRowID, granted: granted, allotted: row["allotted"])
    }

    package func spend(lease: Int64, count: Int) async throws -> Bool {
        try await write { database in
            try database.execute(
                sql: "UPDATE quota_leases SET spent = spent + ? WHERE lease = ? AND spent + ? <= granted",
                arguments: [count, lease, count])
            return database.changesCount == 1
        }
    }

    package func giveBack(_ service: Service, day: CalendarDate, worker: String?) async throws -> Int {
        try await write { database in try Self.giveBack(service, day: day, worker: worker, database) }
    }

    private static func giveBack(_ service: Service, day: CalendarDate, worker: String?, _ database: Database) throws
        -> Int
    {
        // Whose leases: the worker's own, or (no worker) every one past its expiry.
        let returned = try Int.fetchAll(
            database,
            sql: """
                UPDATE quota_leases SET reclaimed = granted - spent, granted = spent
                WHERE service = :service AND day = :day AND granted > spent
                    AND (worker = :worker OR (:worker IS NULL AND expiresAt < \(now)))
                RETURNING reclaimed
                """,
            arguments: ["service": service.rawValue, "day": day.description, "worker": worker]
        ).reduce(0, +)
        if returned > 0 {
            try database.execute(
                sql: "UPDATE quota_days SET allotted = allotted - ? WHERE service = ? AND day = ?",
                arguments: [returned, service.rawValue, day.description])
        }
        return returned
    }

    package func recordCalls(_ service: Service, day: CalendarDate, worker: String, count: Int) async throws {
        guard count > 0 else { return }
        try await write { database in
            try database.execute(
                sql: """
                    INSERT INTO quota_days (service, day, allotted, lastGrant) VALUES (?, ?, ?, 0)
                    ON CONFLICT (service, day) DO UPDATE SET allotted = allotted + excluded.allotted
                    """,
                arguments: [service.rawValue, day.description, count])
            try database.execute(
                sql: """
                    INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expiresAt)
                    VALUES (?, ?, ?, ?, ?, 0, \(Self.now))
                    """,
                arguments: [service.rawValue, day.description, worker, count, count])
        }
    }

    package func quotaCount(_ service: Service, day: CalendarDate) async throws -> QuotaCount {
        try await reader.read { database in try Self.count(service, day, database) }
    }

    private static func count(_ service: Service, _ day: CalendarDate, _ database: Database) throws -> QuotaCount {
        let arguments: StatementArguments = [service.rawValue, day.description]
        let allotted =
            try Int.fetchOne(
                database, sql: "SELECT allotted FROM quota_days WHERE service = ? AND day = ?", arguments: arguments)
            ?? 0
        let spent =
            try Int.fetchOne(
                database, sql: "SELECT COALESCE(SUM(spent), 0) FROM quota_leases WHERE service = ? AND day = ?",
                arguments: arguments) ?? 0
        return QuotaCount(allotted: allotted, spent: spent)
    }

    /// Seconds since 1970 by SQLite's clock, as SQL.
    private static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    /// One write transaction, begun IMMEDIATE, on GRDB's writer queue.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.writeWithoutTransaction { database in
            try database.inImmediateTransaction { try body(database) }
        }
    }
}

extension Database {
    /// Runs `body` in a transaction begun `IMMEDIATE`, committing what it returns and rolling back what it throws.
    func inImmediateTransaction<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try inTransaction(.immediate) {
            result = try body()
            return .commit
        }
        return result!
    }
}
