package import Crypto
import FoundationEssentials
import Glibc

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

extension PosterFile {
    /// Where an image lives inside the cache directory, on every machine: `posters/<sha256>.<ext>`.
    package static func relativePath(_ image: StoredImage) -> String {
        "posters/\(image.sha256).\(fileExtension(image.mimeType))"
    }

    static func fileExtension(_ mimeType: String) -> String {
        switch mimeType {
        case "image/jpeg", "image/jpg", "image/pjpeg": "jpg"
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/avif": "avif"
        case "image/bmp": "bmp"
        case "image/svg+xml": "svg"
        default: "img"
        }
    }
}

extension SHA256.Digest {
    /// Lowercase hexadecimal, as poster file names use it.
    package var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
