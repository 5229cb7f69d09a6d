/// The image formats a poster may be, told by their first bytes: what a server declares is not trusted (HTML sent
/// as `image/jpeg` would be saved as a `.jpg`; an SVG may carry scripts; a header may say anything at any length).
package enum ImageKind: String, Sendable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case gif = "image/gif"
    case webp = "image/webp"

    /// The kind `bytes` start as, or nil when they are none of these.
    package init?(sniffing bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The MIME type the file is saved and reported with.
    package var mimeType: String { rawValue }
}
