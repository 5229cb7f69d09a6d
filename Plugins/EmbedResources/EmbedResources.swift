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
        let tool = try context.tool(named: "embed-resources").url
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        // The stamp is a command and a file of its own: a new commit re-runs only it, and recompiles one small file
        // rather than the resources' literal.
        let versionFile = root.appending(path: "VERSION")
        let gitDirectory = root.appending(path: ".git")
        let stamp = context.pluginWorkDirectoryURL.appending(path: "BuildStamp.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files from \(folders.joined(separator: ", "))",
                executable: tool,
                arguments: ["resources", output.path(), root.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            ),
            .buildCommand(
                displayName: "Stamping the version and the commit",
                executable: tool,
                arguments: ["stamp", stamp.path(), versionFile.path(), gitDirectory.path()],
                inputFiles: [versionFile] + Self.commitFiles(gitDirectory: gitDirectory),
                outputFiles: [stamp]
            ),
        ]
    }

    /// The files whose change means a new commit: `HEAD`, the branch file it names, and `packed-refs`; those that
    /// exist (a detached HEAD has no branch file; a fresh clone may keep its refs packed). Only which files to watch
    /// is decided here; which commit they name, the tool reads when it runs. A `.git` that is a file (a worktree, a
    /// submodule) gives no files to watch, and the tool then stamps "unknown".
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
