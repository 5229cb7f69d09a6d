import Crypto
import Foundation

/// Downloads poster images into `posters/<sha256>.<ext>` of the cache directory.
///
/// Only `image/*` answers are kept, at most 10 MB, following redirects to any http or https URL (images live on
/// many hosts). The URL → file mapping is kept in the cache database, so a second request for the same image reads
/// the file and makes no network call. Files are written to a temporary name and renamed, so a reader never sees a
/// half-written poster, and two processes downloading the same image at once end with the same single file.
package struct PosterDownloader: Sendable {
    package static let maximumBytes = 10 << 20

    private let store: CacheStore
    private let transport: any HTTPTransport
    private let timeout: Duration

    package init(store: CacheStore, transport: any HTTPTransport, timeout: Duration) {
        self.store = store
        self.transport = transport
        self.timeout = timeout
    }

    package func download(_ url: String, refresh: Bool = false) async throws(BoxOfficeError) -> PosterFile {
        if !refresh, let known = try? await store.image(url), Self.isIntact(known) {
            return known
        }
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw BoxOfficeError(.upstreamMalformed, "the poster's image URL is not http or https", service: .kakao)
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(url: url, redactedURL: url, redirectsToAnyHost: true, maximumBytes: Self.maximumBytes),
                timeout: timeout)
        } catch {
            if error.kind == .tooLarge {
                throw BoxOfficeError(
                    .upstreamMalformed,
                    "the poster image at \(url) is larger than the \(Self.maximumBytes >> 20) MB limit; not downloaded",
                    service: .kakao)
            }
            throw BoxOfficeError(
                .upstreamUnavailable, "cannot download the poster image: \(error.message)", service: .kakao)
        }
        guard (200..<300).contains(response.status) else {
            var error = BoxOfficeError(
                response.status >= 500 || response.status == 429 ? .upstreamUnavailable : .upstreamRejected,
                "the poster image at \(url) answered HTTP \(response.status)", service: .kakao)
            error.status = response.status
            throw error
        }
        let mimeType =
            (response.contentType ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard mimeType.hasPrefix("image/"), mimeType.count > 6 else {
            throw BoxOfficeError(
                .upstreamMalformed,
                "the poster URL answered \(mimeType.isEmpty ? "without a content type" : mimeType), not an image; not downloaded",
                service: .kakao)
        }
        let sha256 = SHA256.hash(data: response.body).hexadecimal
        let relative = "posters/\(sha256).\(Self.fileExtension(mimeType))"
        let poster = PosterFile(
            path: store.directory.appendingPathComponent(relative).path, mimeType: mimeType, bytes: response.body.count,
            sha256: sha256)
        do {
            try write(response.body, to: poster.path)
            try await store.storeImage(url, file: relative, poster)
        } catch {
            throw BoxOfficeError(
                .notConfigured, "the poster could not be saved in the cache directory \(store.directory.path): \(error)"
            )
        }
        return poster
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory + "/.\(UInt64.random(in: 0...UInt64.max)).part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CacheStoreError("cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                close(descriptor)
                unlink(temporary)
                throw CacheStoreError("cannot write \(temporary): \(String(cString: strerror(errno)))")
            }
            written += count
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CacheStoreError("cannot rename to \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func isIntact(_ poster: PosterFile) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: poster.path) else { return false }
        return (attributes[.size] as? NSNumber)?.intValue == poster.bytes
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
