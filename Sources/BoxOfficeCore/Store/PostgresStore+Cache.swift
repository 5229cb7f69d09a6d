import NIOCore
import PostgresNIO

/// Upstream bodies by call key.
extension PostgresStore {
    package func entry(_ key: String) async throws -> StoredEntry? {
        try await entries([key])[key]
    }

    package func entries(_ keys: [String]) async throws -> [String: StoredEntry] {
        guard !keys.isEmpty else { return [:] }
        return try await perform { client in
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
        try await perform { client in
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
}
