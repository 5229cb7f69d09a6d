import Foundation
import PackagePlugin

/// Embeds the package's `Schemas/` and `Fixtures/` into the target as Swift string literals, so an installed
/// binary needs no files beside it while the JSON files stay the single source of truth.
///
/// Why not SwiftPM resources: `Bundle.module` looks for a resource bundle beside the executable at run time, which a
/// binary copied to `/usr/local/bin` no longer has; an embedded literal cannot go missing.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let folders = ["Schemas", "Fixtures"]
        var inputs: [URL] = []
        for folder in folders {
            inputs += Self.files(under: root.appending(path: folder))
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let arguments = [output.path(), root.path()] + inputs.map { $0.path() }
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
