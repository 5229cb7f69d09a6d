import Crypto
import FoundationEssentials
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// `--files-dir DIR`: where big payloads go instead of into the answer line. A drawn card (hundreds of kilobytes in
/// base64) or a downloaded poster is written to `DIR/<sha256>.<ext>` and the answer carries `{path, bytes, sha256,
/// mimeType}`, so every line stays far below a line processor's buffer (Redpanda Connect's `subprocess` reads 64 KiB
/// by default).
///
/// Content-addressed, so the same picture is one file however often it is asked for, and written through
/// ``AtomicFile``, so a reader never sees half of one; a file already there under its hash is not written again.
/// The files are made readable by others (0644, less the umask): they are outputs for whatever reads the lines.
package struct FilesDirectory: Sendable {
    package let path: String

    /// - Throws: `not_configured` when `path` is not a directory that exists. The path is kept absolute.
    package init(_ path: String) throws(BoxOfficeError) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw BoxOfficeError(.notConfigured, "--files-dir \(path) is not a directory (create it first)")
        }
        // Absolute, so that a path in an answer means the same file to a reader in another directory.
        guard let resolved = realpath(path, nil) else {
            throw BoxOfficeError(.notConfigured, "--files-dir \(path) cannot be resolved")
        }
        defer { free(resolved) }
        self.path = String(cString: resolved)
    }

    /// Keeps `bytes` as `<sha256>.<ext>`; the file as an answer describes it. - Throws: `storage_full` when the disk
    /// is full, `not_configured` when the directory cannot be written.
    package func keep(_ bytes: [UInt8], mimeType: String) throws(BoxOfficeError) -> PosterFile {
        let sha256 = SHA256.hash(data: bytes).hexadecimal
        let file = PosterFile(
            path: "\(path)/\(sha256).\(PosterFile.fileExtension(mimeType))", mimeType: mimeType, bytes: bytes.count,
            sha256: sha256)
        var status = stat()
        if stat(file.path, &status) == 0, Int(status.st_size) == bytes.count { return file }
        do {
            try AtomicFile.write(bytes, to: file.path, permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            var failure = BoxOfficeError(
                error.code == ENOSPC || error.code == EDQUOT ? .storageFull : .notConfigured,
                "cannot keep a file in --files-dir: \(error)")
            failure.directory = path
            throw failure
        }
        return file
    }

    /// Keeps a copy of `file` (a poster in the cache directory) here. A copy, not a hard link: the cache keeps its
    /// files for its owner alone (0600), and a link would share that mode (or, changed, the cache's).
    package func keep(_ file: PosterFile) throws(BoxOfficeError) -> PosterFile {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw BoxOfficeError(.notConfigured, "cannot read the downloaded poster \(file.path)")
        }
        return try keep([UInt8](data), mimeType: file.mimeType)
    }
}
