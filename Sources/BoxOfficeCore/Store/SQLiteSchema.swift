import SQLite

/// The SQLite database's schema, versioned by `PRAGMA user_version` and brought up to date at open inside one
/// `IMMEDIATE` transaction: the write lock is taken before the version is read, so four workers starting at the
/// same instant on an empty directory migrate once, one after another, and never race.
///
/// (GRDB's `DatabaseMigrator` read its table of applied migrations before taking the write lock; two processes
/// then both applied "v1" and the loser failed on `grdb_migrations.identifier`. Its table is dropped at version 2.)
enum SQLiteSchema {
    /// The newest version this worker knows.
    static let version = 2

    /// The steps, in order: step `n` takes the database from version `n` to `n + 1`.
    static let steps: [String] = [
        // 1: the cache, the poster index, a per-day call count (as earlier workers created them).
        """
        CREATE TABLE IF NOT EXISTS upstream (
            key TEXT PRIMARY KEY NOT NULL, service TEXT NOT NULL, body BLOB NOT NULL,
            fetchedAt DOUBLE NOT NULL, fetchedDay TEXT NOT NULL, origin TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS images (
            url TEXT PRIMARY KEY NOT NULL, file TEXT NOT NULL, mimeType TEXT NOT NULL,
            bytes INTEGER NOT NULL, sha256 TEXT NOT NULL);
        """,
        // 2: the quota as leases (held by a worker, with an expiry) under a per-day count.
        """
        DROP TABLE IF EXISTS quota;
        DROP TABLE IF EXISTS grdb_migrations;
        CREATE TABLE quota_days (
            service TEXT NOT NULL, day TEXT NOT NULL, allotted INTEGER NOT NULL, lastGrant INTEGER NOT NULL,
            PRIMARY KEY (service, day));
        CREATE TABLE quota_leases (
            lease INTEGER PRIMARY KEY AUTOINCREMENT, service TEXT NOT NULL, day TEXT NOT NULL, worker TEXT NOT NULL,
            granted INTEGER NOT NULL, spent INTEGER NOT NULL, reclaimed INTEGER NOT NULL, expiresAt DOUBLE NOT NULL);
        CREATE INDEX quota_leases_day ON quota_leases (service, day);
        """,
    ]

    /// Applies the missing steps; returns the version. Call inside an IMMEDIATE transaction.
    static func migrate(_ database: SQLiteConnection) throws -> Int {
        let current = try database.firstRow("PRAGMA user_version")?[0].int ?? 0
        guard current <= version else {
            throw StoreError(
                .newerSchema,
                "the cache database has schema version \(current), newer than this worker knows (\(version)); upgrade the worker or use another --cache-dir"
            )
        }
        for step in steps[current...] {
            try database.execute(step)
        }
        if current < version { try database.execute("PRAGMA user_version = \(version)") }
        return version
    }
}
