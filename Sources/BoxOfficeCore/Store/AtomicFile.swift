package import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A file written whole or not at all: the bytes go to a new temporary name beside it (created exclusively, so
/// nothing planted under that name is opened), which is then renamed over the path. A reader never sees half a
/// file, two writers never mix theirs, and a link or a file under the path is replaced, never written through.
///
/// Through swift-system: its calls retry what a signal interrupted (EINTR), and `writeAll` writes until every byte
/// is out. The descriptor is closed once, whatever `close` answers (Linux frees it even when the call fails, and a
/// second close could close a number another thread has just been given). The poster store and the static site
/// both write through it.
package enum AtomicFile {
    /// A step that failed, and its `errno` (a full disk is told apart from the rest).
    package struct Failure: Error, CustomStringConvertible {
        /// What failed: `cannot create …`, `cannot write …`, `cannot rename to …`.
        package let what: String
        package let code: Int32

        package var description: String { "\(what): \(String(cString: strerror(code)))" }
    }

    /// Writes `bytes` to `path`, the file made with `permissions`. - Throws: the step that failed; no temporary
    /// file is left behind.
    package static func write(
        _ bytes: [UInt8], to path: String, permissions: FilePermissions = .ownerReadWrite
    ) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "/.\(name).\(UInt64.random(in: 0...UInt64.max)).part"
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                temporary, .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                permissions: permissions)
        } catch {
            throw Failure(what: "cannot create \(temporary)", code: code(error))
        }
        do {
            try descriptor.writeAll(bytes)
        } catch {
            try? descriptor.close()
            unlink(temporary)
            throw Failure(what: "cannot write \(temporary)", code: code(error))
        }
        do {
            try descriptor.close()
        } catch {
            unlink(temporary)
            throw Failure(what: "cannot write \(temporary)", code: code(error))
        }
        guard rename(temporary, path) == 0 else {
            let failure = Failure(what: "cannot rename to \(path)", code: errno)
            unlink(temporary)
            throw failure
        }
    }

    /// Creates `path` and the folders above it that are missing (`mkdir -p`), each with `permissions` less the
    /// umask; a folder already there is left as it is. - Throws: the folder that could not be made, with its
    /// `errno` (a full disk told apart from the rest, which Foundation's `FileManager` errors do not let one do
    /// without the part of Foundation the binary leaves out).
    package static func makeDirectories(_ path: String, permissions: FilePermissions = .ownerReadWriteExecute)
        throws(Failure)
    {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw Failure(what: "cannot create \(path)", code: ENOTDIR)
            }
            return
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]), permissions: permissions)
        }
        guard mkdir(path, permissions.rawValue) == 0 || errno == EEXIST else {
            throw Failure(what: "cannot create \(path)", code: errno)
        }
    }

    /// swift-system's error as its `errno` (`EIO` for anything else, which it does not throw).
    private static func code(_ error: any Error) -> Int32 {
        (error as? Errno)?.rawValue ?? EIO
    }
}
