import NIOConcurrencyHelpers
import Postgres

/// The schema, brought up to date on the first successful connection (``connect()``, or the first operation).
extension PostgresStore {
    /// Brings the schema up to date in one transaction under the advisory lock; refuses a newer one.
    ///
    /// A lock held by another session longer than the statement timeout fails the lock's statement with the
    /// server's reason (the statement timeout), which is what the warning says.
    func migrate(on connection: PostgresConnection, until deadline: ContinuousClock.Instant) throws {
        try inTransaction(connection, until: deadline) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.int(PostgresSchema.lockKey)], until: deadline)
            try connection.query(
                "CREATE TABLE IF NOT EXISTS boxoffice_schema (version integer NOT NULL)", until: deadline)
            let current =
                try connection.query("SELECT version FROM boxoffice_schema", until: deadline).last?.first?.int ?? 0
            guard current <= PostgresSchema.version else {
                throw StoreError(
                    .newerSchema,
                    "the PostgreSQL database \(url.redacted) has schema version \(current), newer than this worker knows (\(PostgresSchema.version)); upgrade the worker"
                )
            }
            for step in PostgresSchema.steps[current...] {
                for statement in step { try connection.query(statement, until: deadline) }
            }
            if current == 0 {
                try connection.query(
                    "INSERT INTO boxoffice_schema (version) VALUES ($1)", [PostgresValue(PostgresSchema.version)],
                    until: deadline)
            } else if current < PostgresSchema.version {
                try connection.query(
                    "UPDATE boxoffice_schema SET version = $1", [PostgresValue(PostgresSchema.version)],
                    until: deadline)
            }
        }
        schema.withLockedValue { $0 = PostgresSchema.version }
    }
}
