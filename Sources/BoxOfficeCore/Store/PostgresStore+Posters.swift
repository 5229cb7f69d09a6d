import Postgres

/// The poster index, with the poster bytes: another machine writes the file from the store and makes no image
/// request.
extension PostgresStore {
    package func image(_ url: String) async throws -> StoredImage? {
        try await perform { connection, deadline in
            guard
                let row = try connection.query(
                    "SELECT sha256, mime_type, bytes FROM images WHERE url = $1", [.text(url)], until: deadline
                ).first,
                let sha256 = row[0].text, let mimeType = row[1].text, let bytes = row[2].int
            else { return nil }
            return StoredImage(sha256: sha256, mimeType: mimeType, bytes: bytes)
        }
    }

    package func imageBytes(sha256: String) async throws -> [UInt8]? {
        try await perform { connection, deadline in
            try connection.query("SELECT body FROM image_bytes WHERE sha256 = $1", [.text(sha256)], until: deadline)
                .first?[0].bytes
        }
    }

    package func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws {
        try await perform { connection, deadline in
            try connection.query(
                """
                WITH kept AS (
                    INSERT INTO image_bytes (sha256, body) VALUES ($2, $5)
                    ON CONFLICT (sha256) DO NOTHING)
                INSERT INTO images (url, sha256, mime_type, bytes)
                VALUES ($1, $2, $3, $4)
                ON CONFLICT (url) DO UPDATE SET sha256 = EXCLUDED.sha256, mime_type = EXCLUDED.mime_type,
                    bytes = EXCLUDED.bytes
                """,
                [.text(url), .text(image.sha256), .text(image.mimeType), PostgresValue(image.bytes), .bytes(bytes)],
                until: deadline)
        }
    }
}
