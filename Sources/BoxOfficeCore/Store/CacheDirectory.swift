package import FoundationEssentials
import Glibc

/// The worker's cache directory made ready for use: created 0700 when missing, refused when it is not the worker's
/// own. The SQLite store keeps its database there and every store its poster files, so both open it through here
/// (a PostgreSQL store keeps its posters there too, and the same user could otherwise swap them).
package enum CacheDirectory {
    /// Creates `directory` (0700) or checks the one there.
    ///
    /// - Parameter allowShared: use a directory other users can write to, or that another user owns (refused
    ///   otherwise: another local user could replace the database or the posters under the worker).
    /// - Throws: ``StoreError`` (`misconfigured`) naming the problem and the fix.
    package static func prepare(_ directory: URL, allowShared: Bool) throws {
        var status = stat()
        if stat(directory.path, &status) != 0 {
            // Checked below all the same: another user may have made it between the look and the creation
            // (createDirectory succeeds on a directory that exists).
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            _ = stat(directory.path, &status)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(.misconfigured, "\(directory.path) is not a directory")
        }
        if !allowShared, let problem = sharedProblem(directory.path) {
            throw StoreError(
                .misconfigured,
                "\(directory.path) \(problem): another local user could replace the cache under the worker; use a directory of your own (chmod 700 \(directory.path)), or --allow-shared-cache-dir to use it anyway"
            )
        }
    }

    /// Why `path` is not the worker's own (writable by group or others, or owned by another user), or nil.
    static func sharedProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if info.st_uid != geteuid() { return "belongs to another user (uid \(info.st_uid))" }
        if info.st_mode & 0o022 != 0 {
            return "can be written by other users (mode \(String(info.st_mode & 0o777, radix: 8)))"
        }
        return nil
    }
}
