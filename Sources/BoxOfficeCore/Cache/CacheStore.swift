package import Foundation
import GRDB

/// The shared on-disk cache: one SQLite database (WAL) in the cache directory, used by every worker process on the
/// machine at once. It holds raw upstream bodies by call key (which never holds an API key) and the KOBIS calls made
/// per KST day.
///
/// Bodies are stored raw and decoded again on every read, so a fix in decoding heals old entries. SQLite's own
/// locking (WAL, a busy timeout) makes concurrent processes safe; no entry is lost because every write is one
/// `INSERT OR REPLACE` or one counter update in its own transaction.
package final class CacheStore: Sendable {
    /// One cached upstream body.
    package struct Entry: Sendable, Equatable {
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

    package static let databaseName = "cache.sqlite"

    /// The cache directory.
    package let directory: URL
    /// The writing connection, serialized by GRDB. A pool opens reader connections lazily, and opening one (a few
    /// milliseconds) landed on the first requests' paths; every statement here takes microseconds, so a single
    /// connection in WAL mode (other processes still read while one writes) is the faster choice.
    private let pool: DatabaseQueue
    /// A second, read-only connection, opened with the first: in WAL mode a reader never waits for a writer, so
    /// lookups (and `worker.status`) go on while a write of this process waits for another process's lock.
    private let reader: DatabaseQueue

    /// Opens (creating on first use) the cache in `directory`: the directory with mode 0700, the database with 0600
    /// (SQLite gives its `-wal` and `-shm` files the database file's mode).
    package init(directory: URL) throws {
        self.directory = directory
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CacheStoreError("\(directory.path) is not a directory") }
        } else {
            try manager.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let path = directory.appendingPathComponent(Self.databaseName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CacheStoreError("cannot open \(path): \(String(cString: strerror(errno)))") }
        Glibc.close(descriptor)

        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.journalMode = .wal
        configuration.label = "boxoffice-cache"
        // WAL with synchronous=NORMAL: commits do not wait for fsync (only a power cut can lose the latest
        // entries, and this is a cache). With FULL, every upstream answer paid a disk flush before it was returned.
        configuration.prepareDatabase { database in
            try database.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { database in
            try database.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS upstream (
                        key TEXT PRIMARY KEY NOT NULL,
                        service TEXT NOT NULL,
                        body BLOB NOT NULL,
                        fetchedAt DOUBLE NOT NULL,
                        fetchedDay TEXT NOT NULL,
                        origin TEXT NOT NULL
                    );
                    CREATE TABLE IF NOT EXISTS images (
                        url TEXT PRIMARY KEY NOT NULL,
                        file TEXT NOT NULL,
                        mimeType TEXT NOT NULL,
                        bytes INTEGER NOT NULL,
                        sha256 TEXT NOT NULL
                    );
                    CREATE TABLE IF NOT EXISTS quota (
                        service TEXT NOT NULL,
                        day TEXT NOT NULL,
                        used INTEGER NOT NULL,
                        PRIMARY KEY (service, day)
                    );
                    """)
        }
        try migrator.migrate(pool)
        var readOnly = configuration
        readOnly.readonly = true
        readOnly.label = "boxoffice-cache-reader"
        readOnly.journalMode = .default
        reader = try DatabaseQueue(path: path, configuration: readOnly)
    }

    /// Closes the database (at exit, after the last write): SQLite folds the WAL back into the database file.
    package func close() {
        try? reader.close()
        try? pool.close()
    }

    /// The path of the database file.
    package var databasePath: String { pool.path }

    // The async forms run on GRDB's own queues: a request waiting for SQLite never holds one of the few threads
    // of Swift's cooperative pool, which the rest of a fan-out needs.

    package func entry(_ key: String) async throws -> Entry? {
        try await reader.read { database in
            guard
                let row = try Row.fetchOne(
                    database, sql: "SELECT body, fetchedAt, fetchedDay, origin FROM upstream WHERE key = ?",
                    arguments: [key])
            else {
                return nil
            }
            let data: Data = row["body"]
            guard let day = CalendarDate(row["fetchedDay"] as String),
                let origin = Source.Origin(rawValue: row["origin"])
            else { return nil }
            return Entry(body: Array(data), fetchedAt: row["fetchedAt"], fetchedDay: day, origin: origin)
        }
    }

    /// The entries kept for `keys`, in one query (a fan-out's parts).
    package func entries(_ keys: [String]) async throws -> [String: Entry] {
        guard !keys.isEmpty else { return [:] }
        return try await reader.read { database in
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ",")
            var found: [String: Entry] = [:]
            for row in try Row.fetchAll(
                database, sql: "SELECT key, body, fetchedAt, fetchedDay, origin FROM upstream WHERE key IN (\(marks))",
                arguments: StatementArguments(keys))
            {
                let data: Data = row["body"]
                guard let day = CalendarDate(row["fetchedDay"] as String),
                    let origin = Source.Origin(rawValue: row["origin"])
                else { continue }
                found[row["key"]] = Entry(
                    body: Array(data), fetchedAt: row["fetchedAt"], fetchedDay: day, origin: origin)
            }
            return found
        }
    }

    /// Stores several entries in one transaction (the write-behind queue's batches).
    package func storeAll(_ entries: [(key: String, service: Service, entry: Entry)]) async throws {
        try await pool.write { database in
            for (key, service, entry) in entries {
                try database.execute(
                    sql:
                        "INSERT OR REPLACE INTO upstream (key, service, body, fetchedAt, fetchedDay, origin) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        key, service.rawValue, Data(entry.body), entry.fetchedAt, entry.fetchedDay.description,
                        entry.origin.rawValue,
                    ]
                )
            }
        }
    }

    /// The downloaded file of an image URL, when there is one.
    package func image(_ url: String) async throws -> PosterFile? {
        try await reader.read { database in
            guard
                let row = try Row.fetchOne(
                    database, sql: "SELECT file, mimeType, bytes, sha256 FROM images WHERE url = ?", arguments: [url])
            else {
                return nil
            }
            return PosterFile(
                path: directory.appendingPathComponent(row["file"] as String).path, mimeType: row["mimeType"],
                bytes: row["bytes"], sha256: row["sha256"])
        }
    }

    /// Records that `url` was downloaded to `file` (relative to the cache directory).
    package func storeImage(_ url: String, file: String, _ poster: PosterFile) async throws {
        try await pool.write { database in
            try database.execute(
                sql: "INSERT OR REPLACE INTO images (url, file, mimeType, bytes, sha256) VALUES (?, ?, ?, ?, ?)",
                arguments: [url, file, poster.mimeType, poster.bytes, poster.sha256]
            )
        }
    }

    /// Reserves up to `count` calls to `service` on `day` without passing `limit`; returns how many were granted
    /// (0 when the budget is spent) and the shared count after. One transaction, so processes sharing the database
    /// never reserve the same call twice.
    package func reserveCalls(_ service: Service, day: CalendarDate, count: Int, limit: Int) async throws -> (
        granted: Int, used: Int
    ) {
        guard limit > 0, count > 0 else { return (0, limit) }
        return try await pool.write { database in
            let before =
                try Int.fetchOne(
                    database, sql: "SELECT used FROM quota WHERE service = ? AND day = ?",
                    arguments: [service.rawValue, day.description]) ?? 0
            let after = min(limit, before + count)
            guard after > before else { return (0, before) }
            try database.execute(
                sql:
                    "INSERT INTO quota (service, day, used) VALUES (?, ?, ?) ON CONFLICT (service, day) DO UPDATE SET used = excluded.used",
                arguments: [service.rawValue, day.description, after]
            )
            return (after - before, after)
        }
    }

    /// Gives back reserved calls that were not made (at exit).
    package func releaseCalls(_ service: Service, day: CalendarDate, count: Int) async throws {
        guard count > 0 else { return }
        try await pool.write { database in
            try database.execute(
                sql: "UPDATE quota SET used = MAX(0, used - ?) WHERE service = ? AND day = ?",
                arguments: [count, service.rawValue, day.description]
            )
        }
    }

    /// Calls counted for `service` on `day`.
    package func calls(_ service: Service, day: CalendarDate) async throws -> Int {
        try await reader.read { database in
            try Int.fetchOne(
                database, sql: "SELECT used FROM quota WHERE service = ? AND day = ?",
                arguments: [service.rawValue, day.description]) ?? 0
        }
    }
}
