import PostgresNIO

/// The quota's leases, each step one statement, by the database's clock (see ``QuotaGuard``).
extension PostgresStore {
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
        return try await perform { client in
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
        try await perform { client in
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
        return try await perform { client in
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
        _ = try await perform { client in
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
        return try await perform { client in
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
