import FoundationEssentials
import NIOConcurrencyHelpers
import Postgres

/// The fleet's store: PostgreSQL through libpq (loaded at run time, only when a `postgres://` store is configured),
/// shared by every worker on every machine (`--database-url`). The same tables as SQLite's in spirit: bodies by call
/// key, the poster index with the poster bytes (so another machine makes no image request), and the quota's leases
/// by the database's clock.
///
/// libpq rather than postgres-nio: postgres-nio imports full Foundation, which with a static runtime brings ICU
/// (37 MB) into the binary of every user, while libpq is a system library most machines that talk to PostgreSQL
/// already have, with TLS, SCRAM, `.pgpass` and service files as every other PostgreSQL client has them.
///
/// A store that cannot be reached is never a failed request: every operation has a deadline (``operationTimeout``,
/// with `statement_timeout` on the server), and after a failure operations fail at once until a backoff has passed
/// (``StoreOutage``); the next try opens a new connection. The schema is brought up to date on the first successful
/// connection, under an advisory lock.
package final class PostgresStore: BoxOfficeStore {
    /// The most one operation may take, connection included; a stuck database fails the operation, not the request.
    package static let operationTimeout: Duration = .seconds(3)
    /// The most the start waits for the first connection (an unreachable server delays the start this long).
    package static let connectTimeout: Duration = .seconds(2)
    /// How much longer than the defaults the deadlines are: 1 in service. A build with a sanitizer runs the client
    /// several times slower, so the sanitized test run stretches them.
    let patience: Int

    package let description: StoreDescription
    let url: DatabaseURL
    let pool: PostgresPool
    /// Finished by ``close()``, which ends ``run()``: a signal that needs no lock and that a cancelled task stops
    /// waiting for too.
    private let closed: AsyncStream<Never>
    private let closing: AsyncStream<Never>.Continuation
    let outage = StoreOutage()
    /// The schema version found (after migrating); nil until the first successful connection.
    let schema = NIOLockedValueBox<Int?>(nil)

    /// Prepares the store; nothing connects until ``connect()`` or the first operation.
    ///
    /// - Throws: `misconfigured` when libpq cannot be loaded (the message says how to install it).
    package init(url: DatabaseURL, patience: Int = 1) throws(StoreError) {
        self.patience = max(1, patience)
        self.url = url
        description = StoreDescription(kind: .postgres, location: url.redacted)
        let version: Int
        do {
            version = try Libpq.version()
        } catch {
            throw StoreError(.misconfigured, error.message)
        }
        // libpq 10 and later speak SCRAM, as PostgreSQL 10+ servers expect of a password.
        guard version >= 100_000 else {
            throw StoreError(
                .misconfigured, "libpq \(version / 10_000) is too old for the PostgreSQL store; 10 or later is needed")
        }
        pool = PostgresPool(
            parameters: url.libpqParameters(
                statementTimeout: .milliseconds(2500) * self.patience, libpqVersion: version,
                environment: ProcessInfo.processInfo.environment))
        (closed, closing) = AsyncStream.makeStream(of: Never.self)
    }

    /// Waits until ``close()``, then closes the pool's connections and threads: the owner runs it in its task group
    /// for the store's life (`WorkerRuntime.run()`), so the group waits while the connections close.
    ///
    /// - Important: Keep it running until after the last operation: the shutdown's last writes (the cache flush,
    ///   the lease given back) come before ``close()``.
    package func run() async {
        for await _ in closed {}
        await pool.close()
    }

    /// Ends ``run()``. At exit, after the last write.
    package func close() async {
        closing.finish()
    }

    /// Connects now, brings the schema up to date and says how it went: at start, so a newer schema is refused
    /// before the first request and an unreachable server is warned about at once, with its real reason. The
    /// connection stays in the pool for the first request.
    package func connect() async throws(StoreError) {
        do {
            _ = try await perform(within: Self.connectTimeout) { _, _ in () }
        } catch {
            throw error as? StoreError ?? StoreError(describe(error))
        }
    }

    package func health() async -> StoreHealth {
        let connected: Bool
        do {
            _ = try await perform { connection, deadline in try connection.query("SELECT 1", until: deadline) }
            connected = true
        } catch {
            connected = false
        }
        return StoreHealth(connected: connected, schemaVersion: schema.withLockedValue { $0 })
    }
}
