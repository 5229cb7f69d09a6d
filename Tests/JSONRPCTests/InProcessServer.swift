import Foundation
import JSONCore
import JSONRPC
import Synchronization
import TestSupport

/// Runs an ``RPCServer`` in this process over files: input lines from a regular file (which also proves that stdin
/// may be one), output to another, so a test sees exactly the bytes a host would.
struct InProcessServer {
    let methods: [any RPCMethod]
    var configuration = ServerConfiguration()

    /// Serves `lines` to end of input; the output lines.
    func transcript(_ lines: [String]) async throws -> [String] {
        try await transcript(bytes: lines.flatMap { Array($0.utf8) + [0x0A] })
    }

    func transcript(bytes: [UInt8]) async throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "rpc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appending(path: "in.ndjson")
        let outputURL = folder.appending(path: "out.ndjson")
        try Data(bytes).write(to: inputURL)
        let input = open(inputURL.path(), O_RDONLY)
        let output = open(outputURL.path(), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            close(input)
            close(output)
        }
        let server = RPCServer(
            registry: MethodRegistry(methods), configuration: configuration, input: input, output: output
        )
        _ = await server.run()
        let text = try String(contentsOf: outputURL, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The same, parsed; a line that is not JSON becomes `nil` and fails the caller's checks.
    func responses(_ lines: [String]) async throws -> [JSONValue?] {
        try await transcript(lines).map { try? JSONParser.parse($0) }
    }
}
