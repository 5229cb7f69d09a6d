import NIOConcurrencyHelpers
import Postgres

/// Running one operation: the outage gate, the deadline, the schema check, and errors made into ``StoreError``s
/// without secrets.
extension PostgresStore {
    /// Runs `operation` on a pooled connection with the outage gate, the deadline and the schema check; errors
    /// come out as ``StoreError``s whose text holds no password.
    ///
    /// The deadline is kept twice: inside, every wait on the connection ends by it (the thread is then free and the
    /// connection closed); outside, ``Deadline`` answers the caller at it even while the operation waits for one
    /// of the pool's threads.
    func perform<T: Sendable>(
        within shortLimit: Duration = operationTimeout,
        _ operation: @escaping @Sendable (PostgresConnection, ContinuousClock.Instant) throws -> T
    ) async throws -> T {
        let limit = shortLimit * patience
        try outage.admit("the PostgreSQL store \(url.redacted)")
        let deadline = ContinuousClock.now + limit
        do {
            let value = try await Deadline.run(
                limit,
                onExpiry: { [url] in
                    StoreError("the PostgreSQL store \(url.redacted) did not answer within \(limit)")
                }
            ) { [self] in
                try await pool.withConnection(until: deadline) { [self] connection in
                    if schema.withLockedValue({ $0 }) == nil { try migrate(on: connection, until: deadline) }
                    return try operation(connection, deadline)
                }
            }
            outage.succeeded()
            return value
        } catch let error as StoreError where error.kind == .newerSchema {
            throw error
        } catch let error as PostgresError where error.kind == .server {
            // The server answered: the store is up, this statement failed.
            throw StoreError(describe(error))
        } catch {
            outage.failed()
            if let error = error as? StoreError { throw error }
            throw StoreError(describe(error))
        }
    }

    /// Runs `body` in a transaction on `connection`, committing what it returns and rolling back what it throws.
    func inTransaction<T>(
        _ connection: PostgresConnection, until deadline: ContinuousClock.Instant, _ body: () throws -> T
    ) throws -> T {
        try connection.query("BEGIN", until: deadline)
        do {
            let value = try body()
            try connection.query("COMMIT", until: deadline)
            return value
        } catch {
            _ = try? connection.query("ROLLBACK", until: deadline)
            throw error
        }
    }

    /// A failure as one line without secrets: the server's own message, or what went wrong with the connection.
    func describe(_ error: any Error) -> String {
        let text = (error as? PostgresError)?.description ?? "\(error)"
        return "the PostgreSQL store \(url.redacted) failed: \(DatabaseURL.redact(text, password: url.password))"
    }
}
