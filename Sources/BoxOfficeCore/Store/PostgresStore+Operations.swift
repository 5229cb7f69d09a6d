import NIOConcurrencyHelpers
import PostgresNIO

/// Running one operation: the outage gate, the deadline, the schema check, and errors made into ``StoreError``s
/// without secrets.
extension PostgresStore {
    /// Runs `operation` with the outage gate, the deadline and the schema check; errors come out as
    /// ``StoreError``s whose text holds no password.
    func perform<T: Sendable>(
        within shortLimit: Duration = operationTimeout,
        _ operation: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let limit = shortLimit * patience
        try outage.admit("the PostgreSQL store \(url.redacted)")
        do {
            let value = try await Deadline.run(
                limit,
                onExpiry: { [url] in
                    StoreError("the PostgreSQL store \(url.redacted) did not answer within \(limit)")
                }
            ) { [self] in
                if schema.withLockedValue({ $0 }) == nil {
                    try await client.withConnection { connection in try await self.migrate(on: connection) }
                }
                return try await operation(client)
            }
            outage.succeeded()
            return value
        } catch let error as StoreError where error.kind == .newerSchema {
            throw error
        } catch let error as PSQLError where error.code == .server {
            // The server answered: the store is up, this statement failed.
            throw StoreError(describe(error))
        } catch {
            outage.failed()
            if let error = error as? StoreError { throw error }
            throw StoreError(describe(error))
        }
    }

    /// A failure as one line without secrets: the server's own message, or what went wrong with the connection.
    func describe(_ error: any Error) -> String {
        let text: String
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                text = "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            } else if let underlying = error.underlying {
                text = "\(error.code): \(underlying)"
            } else {
                text = "\(error.code)"
            }
        } else {
            text = "\(error)"
        }
        return "the PostgreSQL store \(url.redacted) failed: \(DatabaseURL.redact(text, password: url.password))"
    }
}
