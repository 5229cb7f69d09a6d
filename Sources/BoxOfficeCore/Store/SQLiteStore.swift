package import FoundationEssentials
import Glibc
import SQLite

/// The embedded store: one SQLite database (WAL) in the cache directory, used by every worker process on the
/// machine at once, through SQLite's C API (``SQLiteConnection``).
///
/// SQLite serialises writers; every write here is one transaction begun `IMMEDIATE` (the write lock taken at once,
/// so a transaction never fails to upgrade from reading to writing when another process wrote meanwhile), and a
/// busy timeout lets concurrent processes wait their turn. Bodies are stored raw and decoded again on every read,
/// so a fix in decoding heals old entries. Poster bytes are the files of the cache directory, not rows.
package final class SQLiteStore: BoxOfficeStore {
    package static let databaseName = "cache.sqlite"
    /// How long a write waits for another process's lock.
    static let busyTimeout: Duration = .seconds(5)

    /// The cache directory.
    package let directory: URL
    package let description: StoreDescription
    /// The writing connection. Every statement here takes microseconds, so one connection in WAL mode (other
    /// processes still read while one writes) is enough; writes run on its queue, since they may wait for another
    /// process's lock.
    private let writer: SQLiteSerialConnection
    /// A second, read-only connection: in WAL mode a reader never waits for a writer, so lookups (and
    /// `worker.status`) run on the caller's thread, with no hop, while a write of this process waits for another
    /// process's lock.
    private let reader: SQLiteSerialConnection
    private let schemaVersion: Int

    /// Opens (creating on first use) the cache in `directory`: the directory with mode 0700, the database with 0600
    /// (SQLite gives its `-wal` and `-shm` files the database file's mode), and brings its schema up to date.
    ///
    /// A cache written by earlier workers (GRDB's, up to stop 41) is the same file and the same schema: it opens as
    /// it is.
    ///
    /// - Throws: ``StoreError`` with kind `newerSchema` when the database was written by a newer worker.
    /// - Parameter allowShared: see ``CacheDirectory/prepare(_:allowShared:)``.
    package init(directory: URL, allowShared: Bool = false) throws {
        self.directory = directory
        try CacheDirectory.prepare(directory, allowShared: allowShared)
        let path = directory.appendingPathComponent(Self.databaseName).path
        description = StoreDescription(kind: .sqlite, location: path)
        do {
            try Self.createIfMissing(path)
            let writing = try Self.connect(path, readOnly: false)
            schemaVersion = try writing.immediateTransaction { try SQLiteSchema.migrate($0) }
            writer = SQLiteSerialConnection(writing, label: "boxoffice-cache")
            reader = SQLiteSerialConnection(try Self.connect(path, readOnly: true), label: "boxoffice-cache-reader")
        } catch let error as SQLiteError {
            throw StoreError("cannot open the cache database \(path): \(error.message)")
        }
    }

    /// A connection with the store's settings: WAL with synchronous=NORMAL (commits do not wait for fsync; only a
    /// power cut can lose the latest entries, and this is a cache; with FULL, every upstream answer paid a disk
    /// flush before it was returned).
    private static func connect(_ path: String, readOnly: Bool) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
        if !readOnly {
            try connection.rows("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = NORMAL")
        }
        return connection
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
    private static func createIfMissing(_ path: String) throws {
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
        let connection = try SQLiteConnection(path: fresh, busyTimeout: busyTimeout)
        try connection.rows("PRAGMA journal_mode = WAL")
        connection.close()
        guard link(fresh, path) == 0 || errno == EEXIST else {
            throw StoreError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes the database (at exit, after the last write): SQLite folds the WAL back into the database file.
    package func close() async {
        reader.close()
        writer.close()
    }

    package func health() async -> StoreHealth {
        StoreHealth(connected: true, schemaVersion: schemaVersion)
    }

    // Reads run on the caller's thread (a read in WAL mode does not wait for writers); a write is tried there too
    // with no busy wait, and goes to the writer's queue when another process holds the lock, so that a request
    // waiting for it never holds the thread it runs on — the jobs' event loop live (EventLoopExecutor), which every
    // exchange needs. What still runs where it is called: a read during WAL recovery (busy timeout) and a commit's
    // automatic checkpoint (about every 1,000 pages written): rare, and milliseconds.

    package func entry(_ key: String) async throws -> StoredEntry? {
        try reader.inline { database in
            try database.firstRow(
                "SELECT body, fetchedAt, fetchedDay, origin FROM upstream WHERE key = ?", [.text(key)]
            ).flatMap { Self.entry($0[0...]) }
        }
    }

    package func entries(_ keys: [String]) async throws -> [String: StoredEntry] {
        guard !keys.isEmpty else { return [:] }
        return try reader.inline { database in
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ",")
            var found: [String: StoredEntry] = [:]
            for row in try database.rows(
                "SELECT key, body, fetchedAt, fetchedDay, origin FROM upstream WHERE key IN (\(marks))",
                keys.map(SQLiteValue.text))
            {
                if let key = row[0].text, let entry = Self.entry(row[1...]) { found[key] = entry }
            }
            return found
        }
    }

    /// An entry from its columns: body, fetchedAt, fetchedDay, origin.
    private static func entry(_ columns: ArraySlice<SQLiteValue>) -> StoredEntry? {
        let base = columns.startIndex
        guard let body = columns[base].bytes, let fetchedAt = columns[base + 1].real,
            let day = columns[base + 2].text.flatMap(CalendarDate.init),
            let origin = columns[base + 3].text.flatMap(Source.Origin.init(rawValue:))
        else { return nil }
        return StoredEntry(body: body, fetchedAt: fetchedAt, fetchedDay: day, origin: origin)
    }

    package func storeAll(_ items: [StoredItem]) async throws {
        try await write { database in
            for item in items {
                try database.rows(
                    "INSERT OR REPLACE INTO upstream (key, service, body, fetchedAt, fetchedDay, origin) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .text(item.key), .text(item.service.rawValue), .blob(item.entry.body),
                        .real(item.entry.fetchedAt), .text(item.entry.fetchedDay.description),
                        .text(item.entry.origin.rawValue),
                    ])
            }
        }
    }

    package func image(_ url: String) async throws -> StoredImage? {
        try reader.inline { database in
            guard
                let row = try database.firstRow(
                    "SELECT mimeType, bytes, sha256 FROM images WHERE url = ?", [.text(url)]),
                let mimeType = row[0].text, let bytes = row[1].int, let sha256 = row[2].text
            else { return nil }
            return StoredImage(sha256: sha256, mimeType: mimeType, bytes: bytes)
        }
    }

    /// Nil: on one machine the bytes are the files of the cache directory.
    package func imageBytes(sha256: String) async throws -> [UInt8]? { nil }

    package func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws {
        try await write { database in
            try database.rows(
                "INSERT OR REPLACE INTO images (url, file, mimeType, bytes, sha256) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(url), .text(PosterFile.relativePath(image)), .text(image.mimeType), SQLiteValue(image.bytes),
                    .text(image.sha256),
                ])
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
    private static func grant(_ request: LeaseRequest, _ database: SQLiteConnection) throws -> LeaseGrant? {
        // ?1 service, ?2 day, ?3 wanted, ?4 limit.
        guard
            let row = try database.firstRow(
                """
                INSERT INTO quota_days AS q (service, day, allotted, lastGrant)
                VALUES (?1, ?2, MIN(?3, ?4, MAX(1, ?4 / 4)), MIN(?3, ?4, MAX(1, ?4 / 4)))
                ON CONFLICT (service, day) DO UPDATE SET
                    lastGrant = MIN(?3, ?4 - q.allotted, MAX(1, (?4 - q.allotted) / 4)),
                    allotted = q.allotted + MIN(?3, ?4 - q.allotted, MAX(1, (?4 - q.allotted) / 4))
                WHERE q.allotted < ?4
                RETURNING lastGrant, allotted
                """,
                [
                    .text(request.service.rawValue), .text(request.day.description), SQLiteValue(request.wanted),
                    SQLiteValue(request.limit),
                ]),
            let granted = row[0].int, let allotted = row[1].int
        else { return nil }
        try database.rows(
            """
            INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expiresAt)
            VALUES (?, ?, ?, ?, 0, 0, \(now) + ?)
            """,
            [
                .text(request.service.rawValue), .text(request.day.description), .text(request.worker),
                SQLiteValue(granted), .real(request.seconds),
            ])
        return LeaseGrant(lease: database.lastInsertedRowID, granted: granted, allotted: allotted)
    }

    package func spend(lease: Int64, count: Int) async throws -> Bool {
        try await write { database in
            try database.rows(
                "UPDATE quota_leases SET spent = spent + ?1 WHERE lease = ?2 AND spent + ?1 <= granted",
                [SQLiteValue(count), .integer(lease)])
            return database.changes == 1
        }
    }

    package func giveBack(_ service: Service, day: CalendarDate, worker: String?) async throws -> Int {
        try await write { database in try Self.giveBack(service, day: day, worker: worker, database) }
    }

    private static func giveBack(
        _ service: Service, day: CalendarDate, worker: String?, _ database: SQLiteConnection
    ) throws -> Int {
        // Whose leases: the worker's own, or (no worker) every one past its expiry.
        let returned = try database.rows(
            """
            UPDATE quota_leases SET reclaimed = granted - spent, granted = spent
            WHERE service = ?1 AND day = ?2 AND granted > spent
                AND (worker = ?3 OR (?3 IS NULL AND expiresAt < \(now)))
            RETURNING reclaimed
            """,
            [.text(service.rawValue), .text(day.description), SQLiteValue(worker)]
        ).reduce(0) { $0 + ($1[0].int ?? 0) }
        if returned > 0 {
            try database.rows(
                "UPDATE quota_days SET allotted = allotted - ? WHERE service = ? AND day = ?",
                [SQLiteValue(returned), .text(service.rawValue), .text(day.description)])
        }
        return returned
    }

    package func recordCalls(_ service: Service, day: CalendarDate, worker: String, count: Int) async throws {
        guard count > 0 else { return }
        try await write { database in
            try database.rows(
                """
                INSERT INTO quota_days (service, day, allotted, lastGrant) VALUES (?, ?, ?, 0)
                ON CONFLICT (service, day) DO UPDATE SET allotted = allotted + excluded.allotted
                """,
                [.text(service.rawValue), .text(day.description), SQLiteValue(count)])
            try database.rows(
                """
                INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expiresAt)
                VALUES (?1, ?2, ?3, ?4, ?4, 0, \(Self.now))
                """,
                [.text(service.rawValue), .text(day.description), .text(worker), SQLiteValue(count)])
        }
    }

    package func quotaCount(_ service: Service, day: CalendarDate) async throws -> QuotaCount {
        try reader.inline { database in try Self.count(service, day, database) }
    }

    private static func count(_ service: Service, _ day: CalendarDate, _ database: SQLiteConnection) throws
        -> QuotaCount
    {
        let arguments: [SQLiteValue] = [.text(service.rawValue), .text(day.description)]
        let allotted =
            try database.firstRow("SELECT allotted FROM quota_days WHERE service = ? AND day = ?", arguments)?[0].int
            ?? 0
        let spent =
            try database.firstRow(
                "SELECT COALESCE(SUM(spent), 0) FROM quota_leases WHERE service = ? AND day = ?", arguments)?[0].int
            ?? 0
        return QuotaCount(allotted: allotted, spent: spent)
    }

    /// Seconds since 1970 by SQLite's clock, as SQL.
    private static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    /// One write transaction, begun IMMEDIATE, on the writer's queue.
    private func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await writer.run { database in try database.immediateTransaction(body) }
    }
}
