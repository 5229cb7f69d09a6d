import Foundation
import JSONCore
import JSONRPC
import TestSupport

/// Runs an ``RPCServer`` in this process over real descriptors: input lines from a regular file (which also proves
/// that stdin may be one), output to a pipe the test reads as a host would, line by line.
struct InProcessServer {
    let methods: [any RPCMethod]
    var configuration = ServerConfiguration()

    /// Serves `lines` to end of input; the output lines. `onLine` sees each output line as the host reads it, while
    /// the server still runs (to open the gate of a call that must finish later).
    func transcript(_ lines: [String], onLine: @escaping @Sendable (String) -> Void = { _ in }) async throws
        -> [String]
    {
        try await transcript(bytes: lines.flatMap { Array($0.utf8) + [0x0A] }, onLine: onLine)
    }

    func transcript(bytes: [UInt8], onLine: @escaping @Sendable (String) -> Void = { _ in }) async throws
        -> [String]
    {
        let folder = try TemporaryDirectory("rpc")
        defer { folder.remove() }
        let inputURL = folder.url.appending(path: "in.ndjson")
        try Data(bytes).write(to: inputURL)
        let input = open(inputURL.path(), O_RDONLY)
        defer { close(input) }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let received = Self.read(readEnd, onLine: onLine)
        let server = RPCServer(
            registry: MethodRegistry(methods), configuration: configuration, input: input, output: writeEnd
        )
        _ = await server.run()
        close(writeEnd)
        let lines = await received.value
        close(readEnd)
        return lines
    }

    /// Reads `fd` to its end on a thread of its own (a host's reader), handing each complete line to `onLine`.
    private static func read(_ fd: Int32, onLine: @escaping @Sendable (String) -> Void) -> Task<[String], Never> {
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                continuation.yield(Array(buffer[..<count]))
            }
            continuation.finish()
        }.start()
        return Task {
            var pending: [UInt8] = []
            var lines: [String] = []
            for await chunk in chunks {
                pending += chunk
                while let end = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<end], as: UTF8.self)
                    pending.removeSubrange(...end)
                    lines.append(line)
                    onLine(line)
                }
            }
            return lines
        }
    }

    /// The same, parsed; a line that is not JSON becomes `nil` and fails the caller's checks.
    func responses(_ lines: [String], onLine: @escaping @Sendable (String) -> Void = { _ in }) async throws
        -> [JSONValue?]
    {
        try await transcript(lines, onLine: onLine).map { try? JSONParser.parse($0) }
    }
}
