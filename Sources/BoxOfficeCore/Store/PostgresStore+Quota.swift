import Postgres

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
        // $1 service, $2 day, $3 wanted, $4 limit, $5 worker, $6 seconds.
        let parameters: [PostgresValue] = [
            .text(request.service.rawValue), .text(request.day.description), PostgresValue(request.wanted),
            PostgresValue(request.limit), .text(request.worker), .double(request.seconds),
        ]
        return try await perform { connection, deadline in
            guard
                let row = try connection.query(
                    """
                    WITH granted AS (
                        INSERT INTO quota_days AS q (service, day, allotted, last_grant)
                        VALUES ($1, $2, LEAST($3, $4, GREATEST(1, $4 / 4)), LEAST($3, $4, GREATEST(1, $4 / 4)))
                        ON CONFLICT (service, day) DO UPDATE SET
                            last_grant = LEAST($3, $4 - q.allotted, GREATEST(1, ($4 - q.allotted) / 4)),
                            allotted = q.allotted + LEAST($3, $4 - q.allotted, GREATEST(1, ($4 - q.allotted) / 4))
                        WHERE q.allotted < $4
                        RETURNING last_grant, allotted
                    ), leased AS (
                        INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expires_at)
                        SELECT $1, $2, $5, last_grant, 0, 0, extract(epoch FROM clock_timestamp())::float8 + $6
                        FROM granted
                        RETURNING lease
                    )
                    SELECT leased.lease, granted.last_grant, granted.allotted FROM granted, leased
                    """, parameters, until: deadline
                ).first,
                case .int(let lease) = row[0], let granted = row[1].int, let allotted = row[2].int
            else { return nil }
            return LeaseGrant(lease: lease, granted: granted, allotted: allotted)
        }
    }

    package func spend(lease: Int64, count: Int) async throws -> Bool {
        try await perform { connection, deadline in
            try !connection.query(
                "UPDATE quota_leases SET spent = spent + $1 WHERE lease = $2 AND spent + $1 <= granted RETURNING lease",
                [PostgresValue(count), .int(lease)], until: deadline
            ).isEmpty
        }
    }

    @discardableResult
    package func giveBack(_ service: Service, day: CalendarDate, worker: String?) async throws -> Int {
        // One statement: the leases' unspent calls are marked given back (each lease once: a second, concurrent
        // give-back finds granted = spent and skips it) and the same sum leaves the day's count. Whose leases: the
        // worker's own, or (no worker) every one past its expiry.
        let parameters: [PostgresValue] = [.text(service.rawValue), .text(day.description), PostgresValue(worker)]
        return try await perform { connection, deadline in
            try connection.query(
                """
                WITH back AS (
                    UPDATE quota_leases SET reclaimed = granted - spent, granted = spent
                    WHERE service = $1 AND day = $2 AND granted > spent
                        AND (worker = $3
                             OR ($3::text IS NULL AND expires_at < extract(epoch FROM clock_timestamp())::float8))
                    RETURNING reclaimed
                ), total AS (SELECT COALESCE(SUM(reclaimed), 0)::bigint AS calls FROM back)
                UPDATE quota_days SET allotted = allotted - total.calls FROM total
                WHERE service = $1 AND day = $2 AND total.calls > 0
                RETURNING total.calls
                """, parameters, until: deadline
            ).last?[0].int ?? 0
        }
    }

    package func recordCalls(_ service: Service, day: CalendarDate, worker: String, count: Int) async throws {
        guard count > 0 else { return }
        let parameters: [PostgresValue] = [
            .text(service.rawValue), .text(day.description), PostgresValue(count), .text(worker),
        ]
        try await perform { connection, deadline in
            try connection.query(
                """
                WITH counted AS (
                    INSERT INTO quota_days AS q (service, day, allotted, last_grant) VALUES ($1, $2, $3, 0)
                    ON CONFLICT (service, day) DO UPDATE SET allotted = q.allotted + EXCLUDED.allotted
                    RETURNING 1)
                INSERT INTO quota_leases (service, day, worker, granted, spent, reclaimed, expires_at)
                SELECT $1, $2, $4, $3, $3, 0, extract(epoch FROM clock_timestamp())::float8
                FROM counted
                """, parameters, until: deadline)
        }
    }

    package func quotaCount(_ service: Service, day: CalendarDate) async throws -> QuotaCount {
        let parameters: [PostgresValue] = [.text(service.rawValue), .text(day.description)]
        return try await perform { connection, deadline in
            let row = try connection.query(
                """
                SELECT COALESCE((SELECT allotted FROM quota_days WHERE service = $1 AND day = $2), 0)::bigint,
                       COALESCE((SELECT SUM(spent) FROM quota_leases WHERE service = $1 AND day = $2), 0)::bigint
                """, parameters, until: deadline
            ).first
            return QuotaCount(allotted: row?[0].int ?? 0, spent: row?[1].int ?? 0)
        }
    }
}
