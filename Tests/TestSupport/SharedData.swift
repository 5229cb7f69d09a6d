package import Foundation

/// Locates `../shared` (recorded upstream bodies and external test suites) beside the repository.
///
/// Tests that need it are skipped with a printed reason when it is absent, so a fresh clone alone still passes;
/// CI always has it. `BOXOFFICE_SHARED_DIR` overrides the location.
package enum SharedData {
    /// The repository root, found from this file's path (Tests/TestSupport/SharedData.swift).
    package static let repositoryRoot: URL = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["BOXOFFICE_SHARED_DIR"], !override.isEmpty {
            return URL(filePath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appending(path: "shared")
    }()

    package static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appending(path: "testsuites").path())
    }

    package static let unavailableReason = "../shared is absent (set BOXOFFICE_SHARED_DIR): external suites skipped"

    /// The regular files directly inside `relativePath`, sorted; empty when the folder is absent.
    package static func files(in relativePath: String) -> [URL] {
        let folder = directory.appending(path: relativePath)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path())) ?? []
        return names.sorted().map { folder.appending(path: $0) }
    }

    /// The sub-folders directly inside `relativePath`, sorted.
    package static func folders(in relativePath: String) -> [URL] {
        files(in: relativePath).filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path(), isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }
}
