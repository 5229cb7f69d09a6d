import BoxOfficeCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// How the static site reads and writes the files of its folder, which a cron job writes into every day and
/// which someone else may be able to write into too (a shared web root).
///
/// - A file is written whole or not at all (``AtomicFile``: a new temporary name, renamed over the entry). A
///   symbolic link planted under a page's name is so replaced by the page, never followed: the file it named is
///   left as it was.
/// - A FIFO, a device, a socket or a folder under a name the site writes is refused, not opened (opening a FIFO
///   would block the run forever).
/// - The manifest is read only when it is a regular file, for the same reasons.
///
/// The manifest is read through swift-system, whose calls retry what a signal interrupted.
package enum SiteFile {
    /// Why a file of the site could not be read or written.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What is under `name` in `folder`, without following a link.
    package enum Entry {
        case none, regular, link, folder
        /// A FIFO, a socket or a device, by what it is.
        case other(String)
    }

    package static func entry(_ name: String, in folder: String) -> Entry {
        var status = stat()
        guard lstat(folder + "/" + name, &status) == 0 else { return .none }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFLNK: return .link
        case S_IFDIR: return .folder
        case S_IFIFO: return .other("a FIFO")
        case S_IFSOCK: return .other("a socket")
        default: return .other("a device")
        }
    }

    /// Writes `bytes` as `folder/name`, replacing a file or a link of that name. - Throws: when something else
    /// is there, or the folder cannot be written.
    package static func write(_ bytes: [UInt8], named name: String, in folder: String) throws(Failure) {
        let path = folder + "/" + name
        switch entry(name, in: folder) {
        case .none, .regular, .link: break
        case .folder:
            throw Failure(
                description: "\(path) is a folder, not a file the site writes: remove it or choose another folder")
        case .other(let what):
            throw Failure(
                description: "\(path) is \(what), not a file the site writes: remove it or choose another folder")
        }
        do {
            try AtomicFile.write(bytes, to: path, permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw Failure(description: "\(name) could not be written in \(folder): \(error)")
        }
    }

    /// The most a manifest may hold: 16 MiB, some 100,000 pages.
    package static let largestManifest = 16 << 20

    /// The bytes of `folder/name`, nil when there is nothing of that name. - Throws: when it is not a regular
    /// file (a link, a FIFO, a folder) or cannot be read.
    package static func read(named name: String, in folder: String) throws(Failure) -> [UInt8]? {
        let path = folder + "/" + name
        switch entry(name, in: folder) {
        case .none: return nil
        case .regular: break
        case .link: throw Failure(description: "\(path) is a link, not the site's own file: remove it")
        case .folder: throw Failure(description: "\(path) is a folder, not the site's own file: remove it")
        case .other(let what): throw Failure(description: "\(path) is \(what), not the site's own file: remove it")
        }
        do {
            // Not blocking, and judged again once open: a FIFO swapped in after the check above must not hold the
            // run for ever.
            let descriptor = try FileDescriptor.open(path, .readOnly, options: [.noFollow, .closeOnExec, .nonBlocking])
            defer { try? descriptor.close() }
            var status = stat()
            guard fstat(descriptor.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw Failure(description: "\(path) is not a regular file: remove it")
            }
            guard status.st_size <= largestManifest else {
                throw Failure(description: "\(path) is larger than a site's list of pages may be: remove it")
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
                if count == 0 { break }
                bytes += chunk[..<count]
            }
            return bytes
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(path) could not be read: \(error)")
        }
    }
}
