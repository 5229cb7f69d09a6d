import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import PostgresNIO

/// The fleet's store: PostgreSQL through postgres-nio's pooled client, shared by every worker on every machine
/// (`--database-url`). The same tables as SQLite's in spirit: bodies by call key, the poster index with the poster
/// bytes (so another machine makes no image request), and the quota's leases by the database's clock.
///
/// A store that cannot be reached is never a failed request: every operation has a deadline
/// (``operationTimeout``, with `statement_timeout` on the server), and after a failure operations fail at once
/// until a backoff has passed (``StoreOutage``); the client's pool reconnects on the next try. The schema is
/// brought up to date on the first successful connection, under an advisory lock.
///
/// - Important: The pool lends connections only while ``run()`` runs; the owner runs it in a task group for the
///   store's life (``close()`` ends it).
package final class PostgresStore: BoxOfficeStore {
    /// The most one operation may take, connection included; a stuck database fails the operation, not the request.
    package static let operationTimeout: Duration = .seconds(3)
    /// The most the start waits for the first connection (the pool keeps retrying a refused connection instead of
    /// failing it, so this is how long an unreachable server delays the start).
    package static let connectTimeout: Duration = .seconds(2)
    /// How much longer than the defaults the deadlines are: 1 in service. A build with a sanitizer runs the client
    /// (SCRAM's key derivation included) several times slower, so the sanitized test run stretches them.
    let patience: Int

    package let description: StoreDescription
    let url: DatabaseURL
    let client: PostgresClient
    /// The same settings for one direct connection: the start's probe, which (unlike the pool, which keeps
    /// retrying) fails at once with the real reason — refused, no such database, a wrong password.
    let direct: PostgresConnection.Configuration
    /// Finished by ``close()``, which ends ``run()``: a signal that needs no lock and that a cancelled task stops
    /// waiting for too.
    private let closed: AsyncStream<Never>
    private let closing: AsyncStream<Never>.Continuation
    let outage = StoreOutage()
    /// The schema version found (after migrating); nil until the first successful connection.
    let schema = NIOLockedValueBox<Int?>(nil)

    /// Creates the client; its pool starts with ``run()`` and connects on first use (so an unreachable server delays
    /// nothing).
    package init(url: DatabaseURL, patience: Int = 1) throws(StoreError) {
        self.patience = max(1, patience)
        self.url = url
        description = StoreDescription(kind: .postgres, location: url.redacted)
        let tls: PostgresClient.Configuration.TLS
        let directTLS: PostgresConnection.Configuration.TLS
        do {
            switch url.tls {
            case .disable:
                tls = .disable
                directTLS = .disable
            case .prefer:
                tls = .prefer(Self.unverified())
                directTLS = .prefer(try NIOSSLContext(configuration: Self.unverified()))
            case .require:
                tls = .require(Self.unverified())
                directTLS = .require(try NIOSSLContext(configuration: Self.unverified()))
            case .verifyFull:
                tls = .require(.makeClientConfiguration())
                directTLS = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw StoreError(.misconfigured, "cannot set up TLS for \(url.redacted): \(error)")
        }
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: tls)
        configuration.options.connectTimeout = .seconds(2)
        // Two connections kept open (opened in the background at start: a connection's SCRAM handshake costs
        // milliseconds, which must not land on a request), up to eight under load.
        configuration.options.minimumConnections = 2
        configuration.options.maximumConnections = 8
        configuration.options.additionalStartupParameters = [
            ("application_name", "boxoffice-worker"),
            // A statement stuck behind a lock ends on the server too, not only for the waiting client; stretched
            // with the client's deadlines (a sanitized client holds the migration lock several times longer).
            ("statement_timeout", "\(2500 * self.patience)"),
        ]
        // verify-full checks the certificate against the host name, which travels as SNI; an IP address cannot
        // (NIOSSL refuses it), so with an address the chain is verified and the name check is TLS's own.
        let serverName = url.tls == .verifyFull && !url.hostIsAddress ? url.host : nil
        configuration.options.tlsServerName = serverName
        var direct = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: directTLS)
        direct.options.connectTimeout = .seconds(2)
        direct.options.additionalStartupParameters = configuration.options.additionalStartupParameters
        direct.options.tlsServerName = serverName
        self.direct = direct
        client = PostgresClient(configuration: configuration)
        (closed, closing) = AsyncStream.makeStream(of: Never.self)
    }

    /// TLS without certificate verification: libpq's `prefer` and `require`.
    private static func unverified() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }

    /// Runs the client's connection pool until ``close()`` or until the calling task is cancelled, and returns once
    /// the pool has closed its connections.
    ///
    /// postgres-nio lends connections only while `PostgresClient.run()` runs, and documents running it in a task
    /// group that outlives the client's use. A `Task {}` of the store's own would belong to nobody; instead the
    /// session that owns the store runs this in its task group beside its work (`WorkerSession.serve` and the CLI's
    /// `CommandRunner`, through `WorkerRuntime.run()`), so the pool is a child of the session and the group waits
    /// for it before the session ends.
    ///
    /// - Important: Call once, and keep it running until after the last operation: the shutdown's last writes (the
    ///   cache flush, the lease given back) come before ``close()``. An operation while it does not run waits for a
    ///   connection and fails at its deadline.
    package func run() async {
        let client = client
        let closed = closed
        await withDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            for await _ in closed {}
            group.cancelAll()
        }
    }

    /// Ends ``run()``: its owner's task group then waits while the pool closes its connections. At exit, after the
    /// last write.
    package func close() async {
        closing.finish()
    }

    /// Connects now on a connection of its own, brings the schema up to date and says how it went: at start, so a
    /// newer schema is refused before the first request and an unreachable server is warned about at once, with
    /// its real reason.
    package func connect() async throws(StoreError) {
        let direct = direct
        do {
            let limit = Self.connectTimeout * patience
            try await Deadline.run(
                limit,
                onExpiry: { [url] in
                    StoreError("the PostgreSQL store \(url.redacted) did not answer within \(limit)")
                }
            ) { [self] in
                let connection = try await PostgresConnection.connect(configuration: direct, id: 0, logger: Self.quiet)
                do {
                    try await migrate(on: connection)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            }
        } catch let error as StoreError {
            if error.kind != .newerSchema { outage.failed() }
            throw error
        } catch {
            outage.failed()
            throw StoreError(describe(error))
        }
    }

    package func health() async -> StoreHealth {
        let connected: Bool
        do {
            _ = try await perform { client in try await client.query("SELECT 1") }
            connected = true
        } catch {
            connected = false
        }
        return StoreHealth(connected: connected, schemaVersion: schema.withLockedValue { $0 })
    }

    /// postgres-nio's own logging, silenced: the store's failures reach the log once per outage, as warnings
    /// (``CacheWarnings``), not as the client's per-connection messages.
    static let quiet = Logger(label: "boxoffice-worker.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}
