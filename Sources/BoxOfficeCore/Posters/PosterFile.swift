import Foundation

/// A poster image saved in the cache directory (`movie.poster` with `download: true`).
package struct PosterFile: Sendable, Equatable {
    /// Absolute path, inside the cache directory's `posters/`.
    package var path: String
    package var mimeType: String
    package var bytes: Int
    /// Lowercase hex SHA-256 of the file: also its name.
    package var sha256: String

    package init(path: String, mimeType: String, bytes: Int, sha256: String) {
        self.path = path
        self.mimeType = mimeType
        self.bytes = bytes
        self.sha256 = sha256
    }
}
