import Crypto
package import FoundationEssentials
import Glibc
import SystemPackage

/// Downloads poster images into `posters/<sha256>.<ext>` of the cache directory.
///
/// Only PNG, JPEG, GIF and WebP images are kept, told by their first bytes (``ImageKind``; the declared type is not
/// trusted), at most 10 MB, following redirects to any http or https URL (images live on many hosts) whose host is
/// public: loopback, private, link-local and the other addresses ``DownloadDestination`` refuses are never
/// connected to, on the first hop or after a redirect, unless `allowPrivate` (tests, private mirrors). The URL → digest index is kept in the store; a store shared across machines (PostgreSQL) keeps the
/// bytes too, so another machine writes the file from the store on first use and makes no image request. Files
/// are written to a temporary name and renamed, so a reader never sees a half-written poster, and two processes
/// saving the same image at once end with the same single file.
package struct PosterDownloader: Sendable {
    package static let maximumBytes = 10 << 20

    private let store: any BoxOfficeStore
    /// The local cache directory, where the files live on this machine.
    private let directory: URL
    private let transport: any HTTPTransport
    private let timeout: Duration
    private let allowPrivate: Bool

    package init(
        store: any BoxOfficeStore, directory: URL, transport: any HTTPTransport, timeout: Duration,
        allowPrivate: Bool = false
    ) {
        self.store = store
        self.directory = directory
        self.transport = transport
        self.timeout = timeout
        self.allowPrivate = allowPrivate
    }

    /// Why `url` may not be downloaded from (its host is not public), or the vetted address to fetch it from.
    static func destination(_ url: String) async -> DestinationVerdict {
        guard let host = URLComponents(string: url)?.host, !host.isEmpty else {
            return .refused("\(url) names no host")
        }
        return await DownloadDestination.checked(host: host)
    }

    package func download(_ url: String, refresh: Bool = false) async throws(BoxOfficeError) -> PosterFile {
        // What the store knows is used only when it is still a kind of image this worker saves (entries from
        // before the sniffing, an SVG or HTML saved under an image type, are fetched again and judged).
        if !refresh, let known = try? await store.image(url), ImageKind(rawValue: known.mimeType) != nil {
            let poster = file(known)
            if Self.isIntact(poster) { return poster }
            if let bytes = try? await store.imageBytes(sha256: known.sha256), bytes.count == known.bytes,
                ImageKind(sniffing: bytes)?.mimeType == known.mimeType,
                SHA256.hash(data: bytes).hexadecimal == known.sha256,
                (try? write(bytes, to: poster.path)) != nil
            {
                return poster
            }
        }
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw BoxOfficeError(.upstreamMalformed, "the poster's image URL is not http or https", service: .kakao)
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(
                    url: url, redactedURL: url, redirectsToAnyHost: true, maximumBytes: Self.maximumBytes,
                    destinationCheck: allowPrivate ? nil : Self.destination),
                timeout: timeout)
        } catch {
            if error.kind == .refused {
                throw BoxOfficeError(
                    .upstreamMalformed,
                    "the poster image is not downloaded: \(error.message); downloads go to public addresses only (BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS=1 allows a private mirror)",
                    service: .kakao)
            }
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
        guard let kind = ImageKind(sniffing: response.body) else {
            throw BoxOfficeError(
                .upstreamMalformed,
                "the poster URL answered something that is not a PNG, JPEG, GIF or WebP image; not downloaded",
                service: .kakao)
        }
        let mimeType = kind.mimeType
        let sha256 = SHA256.hash(data: response.body).hexadecimal
        let image = StoredImage(sha256: sha256, mimeType: mimeType, bytes: response.body.count)
        let poster = file(image)
        do {
            try write(response.body, to: poster.path)
        } catch {
            if error.code == ENOSPC || error.code == EDQUOT {
                var full = BoxOfficeError(
                    .storageFull,
                    "the poster could not be saved: the disk under the cache directory \(directory.path) is full (\(error.message))"
                )
                full.directory = directory.path
                throw full
            }
            throw BoxOfficeError(
                .notConfigured,
                "the poster could not be saved in the cache directory \(directory.path): \(error.message)")
        }
        // The index is a cache like the bodies: a store that fails costs the next machine a download, not this
        // request its file.
        try? await store.storeImage(url, image, bytes: response.body)
        return poster
    }

    private func file(_ image: StoredImage) -> PosterFile {
        PosterFile(
            path: directory.appendingPathComponent(PosterFile.relativePath(image)).path, mimeType: image.mimeType,
            bytes: image.bytes, sha256: image.sha256)
    }

    /// A failed file operation, with its `errno` (a full disk is told apart from the rest).
    struct FileError: Error {
        let code: Int32
        let message: String

        init(_ what: String, code: Int32 = errno) {
            self.code = code
            message = "\(what): \(String(cString: strerror(code)))"
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        do {
            try AtomicFile.makeDirectories(directory)
        } catch {
            throw FileError(error.what, code: error.code)
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw FileError(error.what, code: error.code)
        }
    }

    static func isIntact(_ poster: PosterFile) -> Bool {
        var status = stat()
        return stat(poster.path, &status) == 0 && Int(status.st_size) == poster.bytes
    }
}
