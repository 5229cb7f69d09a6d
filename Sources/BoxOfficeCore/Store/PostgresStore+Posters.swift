import NIOCore
import PostgresNIO

/// The poster index, with the poster bytes: another machine writes the file from the store and makes no image
/// request.
extension PostgresStore {
    package func image(_ url: String) async throws -> StoredImage? {
        try await perform { client in
            let rows = try await client.query(
                "SELECT sha256, mime_type, bytes FROM images WHERE url = \(url)", logger: Self.quiet)
            for try await (sha256, mimeType, bytes) in rows.decode((String, String, Int).self) {
                return StoredImage(sha256: sha256, mimeType: mimeType, bytes: bytes)
            }
            return nil
        }
    }

    package func imageBytes(sha256: String) async throws -> [UInt8]? {
        try await perform { client in
            let rows = try await client.query(
                "SELECT body FROM image_bytes WHERE sha256 = \(sha256)", logger: Self.quiet)
            for try await body in rows.decode(ByteBuffer.self) {
                return Array(buffer: body)
            }
            return nil
        }
    }

    package func storeImage(_ url: String, _ image: StoredImage, bytes: [UInt8]) async throws {
        _ = try await perform { client in
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
}
