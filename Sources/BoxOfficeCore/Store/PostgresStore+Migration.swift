import NIOConcurrencyHelpers
import PostgresNIO

/// The schema, brought up to date on the first successful connection (``connect()``, or the first operation).
extension PostgresStore {
    /// Brings the schema up to date in one transaction under the advisory lock; refuses a newer one.
    func migrate(on connection: PostgresConnection) async throws {
        try await connection.query("BEGIN", logger: Self.quiet)
        do {
            // Read to its end: the server describes the row before it waits for the lock, so the query comes back
            // at once and a failure while waiting (the statement timeout) arrives with the rows. Left unread, it
            // showed only as the next statement's "current transaction is aborted".
            for try await _ in try await connection.query(
                "SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))", logger: Self.quiet)
            {}
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS boxoffice_schema (version integer NOT NULL)", logger: Self.quiet)
            var current = 0
            for try await version in try await connection.query(
                "SELECT version FROM boxoffice_schema", logger: Self.quiet
            ).decode(Int.self) {
                current = version
            }
            guard current <= PostgresSchema.version else {
                throw StoreError(
                    .newerSchema,
                    "the PostgreSQL database \(url.redacted) has schema version \(current), newer than this worker knows (\(PostgresSchema.version)); upgrade the worker"
                )
            }
            for step in PostgresSchema.steps[current...] {
                for statement in step {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Self.quiet)
                }
            }
            if current == 0 {
                try await connection.query(
                    "INSERT INTO boxoffice_schema (version) VALUES (\(PostgresSchema.version))", logger: Self.quiet)
            } else if current < PostgresSchema.version {
                try await connection.query(
                    "UPDATE boxoffice_schema SET version = \(PostgresSchema.version)", logger: Self.quiet)
            }
            try await connection.query("COMMIT", logger: Self.quiet)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: Self.quiet)
            throw error
        }
        schema.withLockedValue { $0 = PostgresSchema.version }
    }
}
