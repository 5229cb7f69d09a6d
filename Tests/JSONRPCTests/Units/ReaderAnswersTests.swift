import Foundation
import JSONCore
import TestSupport
import Testing

@testable import JSONRPC

/// Which thread answers over a real pipe: a host that sends one request and waits has it answered by the reader
/// thread (no hand-over); a chunk of many lines goes to the responder, so reading overlaps answering.
@Suite("Reader answers small chunks")
struct ReaderAnswersTests {
    @Test("a lone request is answered by the reader; a 40-line chunk by the responder; every answer arrives")
    func whoAnswers() async throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        try #require(pipe(&input) == 0 && pipe(&output) == 0)
        let server = RPCServer(
            registry: MethodRegistry(TestMethods.all()), configuration: ServerConfiguration(), input: input[0],
            output: output[1])
        let serving = Task { await server.run() }
        let host = LineReader(fd: output[0])

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            // Under PIPE_BUF: one atomic write, read as one chunk.
            precondition(bytes.count < 4096)
            _ = bytes.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        }
        send(#"{"jsonrpc":"2.0","id":0,"method":"test.echo","params":{"n":0}}"# + "\n")
        let first = host.next()
        #expect(first?.contains(#""id":0"#) == true)
        #expect(server.queue.claims == 1)

        send((1...40).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"test.echo"}"# + "\n" }.joined())
        var ids: Set<Int64> = []
        for _ in 1...40 {
            let line = try #require(host.next())
            let id = try #require(JSONParser.parse(line)["id"]?.integerValue)
            ids.insert(id)
        }
        #expect(ids == Set(1...40))
        #expect(server.queue.claims == 1, "a long chunk is the responder's")

        close(input[1])
        let ending = await serving.value
        #expect(ending == .endOfInput)
        close(output[1])
        close(output[0])
        close(input[0])
    }
}

/// A host's blocking line reader over a pipe.
private final class LineReader {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next line, without its newline; nil at end of file.
    func next() -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                defer { pending.removeSubrange(...end) }
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }
}
