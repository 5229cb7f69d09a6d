package import Foundation

/// A directory under the system's temporary folder, owned by one test, which removes it: `scripts/test` compares the
/// temporary folder before and after the run and fails on anything left behind.
package struct TemporaryDirectory: Sendable {
    package let url: URL

    /// A new directory named `<prefix>-<UUID>`; with `create: false` only its name (for a program that creates it).
    package init(_ prefix: String, create: Bool = true) throws {
        url = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        if create { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    }

    package var path: String { url.path(percentEncoded: false) }

    /// Removes the directory and everything in it (nothing when it does not exist).
    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a new temporary directory and removes it afterwards, whether `body` returns or throws.
package func withTemporaryDirectory<Result>(
    _ prefix: String, create: Bool = true, _ body: (TemporaryDirectory) async throws -> Result
) async throws -> Result {
    let directory = try TemporaryDirectory(prefix, create: create)
    defer { directory.remove() }
    return try await body(directory)
}
