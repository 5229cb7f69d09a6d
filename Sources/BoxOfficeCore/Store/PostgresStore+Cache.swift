import Postgres

/// Upstream bodies by call key.
extension PostgresStore {
    package func entry(_ key: String) async throws -> StoredEntry? {
        try await entries([key])[key]
    }

    package func entries(_ keys: [String]) async throws -> [String: StoredEntry] {
        guard !keys.isEmpty else { return [:] }
        // One text[] parameter, written in the array's text form (each key quoted and escaped).
        let array =
            "{"
            + keys.map { "\"" + $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
        return try await perform { connection, deadline in
            var found: [String: StoredEntry] = [:]
            for row in try connection.query(
                "SELECT key, body, fetched_at, fetched_day, origin FROM upstream WHERE key = ANY($1::text[])",
                [.text(array)], until: deadline)
            {
                guard let key = row[0].text, let body = row[1].bytes, let fetchedAt = row[2].double,
                    let day = row[3].text.flatMap(CalendarDate.init),
                    let origin = row[4].text.flatMap(Source.Origin.init(rawValue:))
                else { continue }
                found[key] = StoredEntry(body: body, fetchedAt: fetchedAt, fetchedDay: day, origin: origin)
            }
            return found
        }
    }

    package func storeAll(_ items: [StoredItem]) async throws {
        guard !items.isEmpty else { return }
        try await perform { [self] connection, deadline in
            try inTransaction(connection, until: deadline) {
                for item in items {
                    try connection.query(
                        """
                        INSERT INTO upstream (key, service, body, fetched_at, fetched_day, origin)
                        VALUES ($1, $2, $3, $4, $5, $6)
                        ON CONFLICT (key) DO UPDATE SET service = EXCLUDED.service, body = EXCLUDED.body,
                            fetched_at = EXCLUDED.fetched_at, fetched_day = EXCLUDED.fetched_day,
                            origin = EXCLUDED.origin
                        """,
                        [
                            .text(item.key), .text(item.service.rawValue), .bytes(item.entry.body),
                            .double(item.entry.fetchedAt), .text(item.entry.fetchedDay.description),
                            .text(item.entry.origin.rawValue),
                        ], until: deadline)
                }
            }
        }
    }
}
