import Foundation
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
package final class PostgresStore: BoxOfficeStore {
    /// The most one operation may take, connection included; a stuck database fails the operation, not the request.
    package static let operationTimeout: Duration = .seconds(3)
    /// The most the start waits for the first connection (the pool keeps retrying a refused connection instead of
    /// failing it, so this is how long an unreachable server delays the start).
    package static let connectTimeout: Duration = .seconds(2)
    /// How much longer than the defaults the deadlines are: 1 in service. A build with a sanitizer runs the client
    /// (SCRAM's key derivation included) several times slower, so the sanitized test run stretches them.
    private let patience: Int

    package let description: StoreDescription
    private let url: DatabaseURL
    private let client: PostgresClient
    /// The same settings for one direct connection: the start's probe, which (unlike the pool, which keeps
    /// retrying) fails at once with the real reason — refused, no such database, a wrong password.
    private let direct: PostgresConnection.Configuration
    private let running: Task<Void, Never>
    private let outage = StoreOutage()
    /// The schema version found (after migrating); nil until the first successful connection.
    private let schema = NIOLockedValueBox<Int?>(nil)

    /// Creates the client and starts its pool; connects on first use (so an unreachable server delays nothing).
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
        let client = PostgresClient(configuration: configuration)
        self.client = client
        running = Task { await client.run() }
    }

    /// TLS without certificate verification: libpq's `prefer` and `require`.
    private static func unverified() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }

    package func close() async {
        running.cancel()
        await running.value
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
            _ = try await run { client in try await client.query("SELECT 1") }
            connected = true
        } catch {
            connected = false
        }
        return StoreHealth(connected: connected, schemaVersion: schema.withLockedValue { $0 })
    }

    // MARK: Running operations

    /// Runs `operation` with the outage gate, the deadline and the schema check; errors come out as
    /// ``StoreError``s whose text holds no password.
    private func run<T: Sendable>(
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

    /// Brings the schema up to date in one transaction under the advisory lock; refuses a newer one.
    private func migrate(on connection: PostgresConnection) async throws {
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

    /// A failure as one line without secrets: the server's own message, or what went wrong with the connection.
    private func describe(_ error: any Error) -> String {
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

    private static let quiet = Logger(label: "boxoffice-worker.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    // MARK: Cache

    package func entry(_ key: String) async throws -> StoredEntry? {
        try await entries([key])[key]
    }

    package func entries(_ keys: [String]) async throws -> [String: StoredEntry] {
        guard !keys.isEmpty else { return [:] }
        return try await run { client in
            var found: [String: StoredEntry] = [:]
            let rows = try await client.query(
                "SELECT key, body, fetched_at, fetched_day, origin FROM upstream WHERE key = ANY(\(keys))",
                logger: Self.quiet)
            for try await (key, body, fetchedAt, fetchedDay, origin) in rows.decode(
                (String, ByteBuffer, Double, String, String).self)
            {
                guard let day = CalendarDate(fetchedDay), let origin = Source.Origin(rawValue: origin) else {
                    continue
                }
                found[key] = StoredEntry(
                    body: Array(buffer: body), fetchedAt: fetchedAt, fetchedDay: day, origin: origin)
            }
            return found
        }
    }

    package func storeAll(_ items: [StoredItem]) async throws {
        guard !items.isEmpty else { return }
        try await run { client in
            try await client.withTransaction(logger: Self.quiet) { connection in
                for item in items {
                    try await connection.query(
                        """
                        INSERT INTO upstream (key, service, body, fetched_at, fetched_day, origin)
                        VALUES (\(item.key), \(item.service.rawValue), \(ByteBuffer(bytes: item.entry.body)),
                                \(item.entry.fetchedAt), \(item.entry.fetchedDay.description),
                                \(item.entry.origin.rawValue))
                        ON CONFLICT (key) DO UPDATE SET service = EXCLUDED.service, body = EXCLUDED.body,
                            fetched_at = EXCLUDED.fetched_at, fetched_day = EXCLUDED.fetched_day,
                            origin = EXCLUDED.origin
                        """, logger: Self.quiet)
                }
            }
        }
    }

    // MARK: Posters

    package func image(_ url: String) async throws -> StoredImage? {
        try await run { client in
            let rows = try await client.query(
                "SELECT sha256, mime_type, bytes FROM images WHERE url = \(url)", logger: Self.quiet)
            for try await (sha256, mimeType, bytes) in rows.decode((String, String, Int).self) {
                return StoredImage(sha256: sha256, mimeType: mimeType, bytes: bytes)
            }
            return nil
        }
    }

    package func imageBytes(sha256: String) async throws -> [UInt8]? {
        try await run { client in
            let rows = try await client.query(
                "SELECT body FROM image_bytes WHERE sha256 = \(sha256)", logger: Self.quiet)
            for try await body in rows.decode(ByteBuffer.self) {
                return Array(buffer: body)
            }
            return nil
        }
    }

    package func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws {
        _ = try await run { client in
            try await client.query(
                """
                WITH kept AS (
                    INSERT INTO image_bytes (sha256, body) VALUES (\(image.sha256), \(ByteBuffer(bytes: bytes)))
                    ON CONFLICT (sha256) DO NOTHING)
                INSERT INTO images (url, sha256, mime_type, bytes)
                VALUES (\(url), \(image.sha256), \(image.mimeType), \(image.bytes))
                ON CONFLICT (url) DO UPDATE SET sha256 = EXCLUDED.sha256, mime_type = EXCLUDED.mime_type,
                    bytes = EXCLUDED.bytes
                """, logger: Self.quiet)
        }
    }

    // MARK: Quota

    package func takeLease(_ request: LeaseRequest) async throws -> LeaseGrant {
        guard request.limit > 0, request.wanted > 0 else { return LeaseGrant(lease: nil, granted: 0, allotted: 0) }
        if let grant = try await grant(request) { return grant }
        // The budget looks spent: take back what dead workers left in expired leases, then ask once more.
        if try await giveBack(request.service, day: request.day, worker: nil) > 0,
            let grant = try await grant(request)
        {
            return grant
        }
        let count = try await quotaCount(request.service, day: request.day)
        return LeaseGrant(lease: nil, granted: 0, allotted: count.allotted)
    }

    /// The atomic grant, one statement: an upsert of the day's row that adds the lease to its count only while the
    /// count is under the limit (PostgreSQL re-checks the condition against the newest row when two grants meet),
    /// and the lease's own row, written only when something was granted. The size shrinks near the limit (a
    /// quarter of what is left, at least one) so that every worker of a fleet gets calls until the budget is spent.
    private func grant(_ request: LeaseRequest) async throws -> LeaseGrant? {
        let service = request.service.rawValue
        let day = request.day.description
        let wanted = request.wanted
        let limit = request.limit
        let worker = request.worker
        let seconds = request.seconds
        return try await run { client in
            let rows = try await client.query(
                """
                WITH granted AS (
                    INSERT INTO quota_days AS q (service, day, allotted, last_grant)
                    VALUES (\(service), \(day), LEAST(\(wanted), \(limit), GREATEST(1, \(limit) / 4)),
                            LEAST(\(wanted), \(limit), GREATEST(1, \(limit) / 4)))
                    ON CONFLICT (service, day) DO UPDATE SET
                        last_grant = LEAST(\(wanted), \(limit) - q.allotted, GREATEST(1, (\(limit) - q.allotted) / 4)),
                        allotted = q.allotted
                            + LEAST(\(wanted), \(limit) - q.allotted, GREATEST(1, (\(limit) - q.allotted) / 4))
                    WHERE q.allotted < \(limit)
                    RETURNING last_grant, allotted
                ), leased AS (
                    INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expires_at)
                    SELECT \(service), \(day), \(worker), last_grant, 0, 0,
                           extract(epoch FROM clock_timestamp())::float8 + \(seconds)
                    FROM granted
                    RETURNING lease
                )
                SELECT leased.lease, granted.last_grant, granted.allotted FROM granted, leased
                """, logger: Self.quiet)
            for try await (lease, granted, allotted) in rows.decode((Int64, Int, Int).self) {
                return LeaseGrant(lease: lease, granted: granted, allotted: allotted)
            }
            return nil
        }
    }

    package func spend(lease: Int64, count: Int) async throws -> Bool {
        try await run { client in
            let rows = try await client.query(
                """
                UPDATE quota_leases SET spent = spent + \(count)
                WHERE lease = \(lease) AND spent + \(count) <= granted RETURNING lease
                """, logger: Self.quiet)
            var changed = false
            for try await _ in rows.decode(Int64.self) { changed = true }
            return changed
        }
    }

    @discardableResult
    package func giveBack(_ service: Service, day: CalendarDate, worker: String?) async throws -> Int {
        let service = service.rawValue
        let day = day.description
        // One statement: the leases' unspent calls are marked given back (each lease once: a second, concurrent
        // give-back finds granted = spent and skips it) and the same sum leaves the day's count. Whose leases: the
        // worker's own, or (no worker) every one past its expiry.
        let query: PostgresQuery = """
            WITH back AS (
                UPDATE quota_leases SET reclaimed = granted - spent, granted = spent
                WHERE service = \(service) AND day = \(day) AND granted > spent
                    AND (worker = \(worker)
                         OR (\(worker)::text IS NULL AND expires_at < extract(epoch FROM clock_timestamp())::float8))
                RETURNING reclaimed
            ), total AS (SELECT COALESCE(SUM(reclaimed), 0)::bigint AS calls FROM back)
            UPDATE quota_days SET allotted = allotted - total.calls FROM total
            WHERE service = \(service) AND day = \(day) AND total.calls > 0
            RETURNING total.calls
            """
        return try await run { client in
            var returned = 0
            for try await calls in try await client.query(query, logger: Self.quiet).decode(Int.self) {
                returned = calls
            }
            return returned
        }
    }

    package func recordCalls(_ service: Service, day: CalendarDate, worker: String, count: Int) async throws {
        guard count > 0 else { return }
        let service = service.rawValue
        let day = day.description
        _ = try await run { client in
            try await client.query(
                """
                WITH counted AS (
                    INSERT INTO quota_days AS q (service, day, allotted, last_grant) VALUES (\(service), \(day), \(count), 0)
                    ON CONFLICT (service, day) DO UPDATE SET allotted = q.allotted + EXCLUDED.allotted
                    RETURNING 1)
                INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expires_at)
                SELECT \(service), \(day), \(worker), \(count), \(count), 0,
                       extract(epoch FROM clock_timestamp())::float8
                FROM counted
                """, logger: Self.quiet)
        }
    }

    package func quotaCount(_ service: Service, day: CalendarDate) async throws -> QuotaCount {
        let service = service.rawValue
        let day = day.description
        return try await run { client in
            let rows = try await client.query(
                """
                SELECT COALESCE((SELECT allotted FROM quota_days WHERE service = \(service) AND day = \(day)), 0)::bigint,
                       COALESCE((SELECT SUM(spent) FROM quota_leases WHERE service = \(service) AND day = \(day)), 0)::bigint
                """, logger: Self.quiet)
            for try await (allotted, spent) in rows.decode((Int, Int).self) {
                return QuotaCount(allotted: allotted, spent: spent)
            }
            return QuotaCount(allotted: 0, spent: 0)
        }
    }
}
