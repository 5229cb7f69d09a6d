import Foundation
import PackagePlugin

/// Embeds the package's `Schemas/` and `Fixtures/` into the target as Swift string literals, so an installed
/// binary needs no files beside it while the JSON files stay the single source of truth.
///
/// Why not SwiftPM resources: `Bundle.module` looks for a resource bundle beside the executable at run time, which a
/// binary copied to `/usr/local/bin` no longer has; an embedded literal cannot go missing.
///
/// It also stamps the build: the version from the package's `VERSION` file (the one place it is written) and the
/// commit the sources were checked out at. The git files that name the commit are inputs of the command, so a new
/// commit re-stamps the binary; a build outside a git checkout says "unknown".
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let folders = ["Schemas", "Fixtures"]
        var inputs: [URL] = []
        for folder in folders {
            inputs += Self.files(under: root.appending(path: folder))
        }
        let stamp = [root.appending(path: "VERSION")] + Self.commitFiles(gitDirectory: root.appending(path: ".git"))
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let arguments =
            [
                output.path(), root.path(), "--version-file", stamp[0].path(), "--git-dir",
                root.appending(path: ".git").path(),
            ]
            + inputs.map { $0.path() }
        inputs += stamp
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files from \(folders.joined(separator: ", "))",
                executable: try context.tool(named: "embed-resources").url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// The files whose change means a new commit: `HEAD`, the branch file it names, and `packed-refs`; those that
    /// exist (a detached HEAD has no branch file; a fresh clone may keep its refs packed).
    static func commitFiles(gitDirectory: URL) -> [URL] {
        var files = [gitDirectory.appending(path: "HEAD"), gitDirectory.appending(path: "packed-refs")]
        if let head = try? String(contentsOf: files[0], encoding: .utf8), head.hasPrefix("ref: ") {
            let reference = head.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
            files.append(gitDirectory.appending(path: reference))
        }
        return files.filter { FileManager.default.fileExists(atPath: $0.path()) }
    }

    /// Every regular JSON or NDJSON file below `directory`, sorted so the generated source is stable.
    static func files(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }
            .filter { ["json", "ndjson"].contains($0.pathExtension) }
            .sorted { $0.path() < $1.path() }
    }
}
