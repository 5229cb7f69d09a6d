import Foundation
import JSONCore
package import JSONRPC

/// Serves `input` to end of input through an ``RPCServer`` over a pair of unlinked temporary files (no network)
/// and checks what a host would hold it to: every output line is one JSON value, no request id is answered twice,
/// and (unless `cancellable`, where a cancelled request may go unanswered) every id that occurs once in the input
/// as a request object's `id` is answered. The server's notifications (progress) are let through. A broken rule stops the fuzzer with a report.
package enum LineHarness {
    package static func serve(
        _ input: [UInt8], registry: MethodRegistry, configuration: ServerConfiguration, cancellable: Bool
    ) {
        let inputFile = temporaryFile()
        let outputFile = temporaryFile()
        defer {
            close(inputFile)
            close(outputFile)
        }
        input.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = write(inputFile, buffer.baseAddress! + written, buffer.count - written)
                precondition(count > 0, "cannot write the fuzz input")
                written += count
            }
        }
        lseek(inputFile, 0, SEEK_SET)
        let done = DispatchSemaphore(value: 0)
        let server = RPCServer(registry: registry, configuration: configuration, input: inputFile, output: outputFile)
        Task {
            _ = await server.run()
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success else { fatalError("the server did not finish in 30 s") }
        lseek(outputFile, 0, SEEK_SET)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(outputFile, &chunk, chunk.count)
            if count <= 0 { break }
            output += chunk[..<count]
        }
        check(input: input, output: output, cancellable: cancellable)
    }

    /// A file only this process can reach: created and unlinked at once.
    private static func temporaryFile() -> Int32 {
        var template = Array("/tmp/boxoffice-fuzz-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        precondition(descriptor >= 0, "cannot create a temporary file")
        unlink(template)
        return descriptor
    }

    private static func check(input: [UInt8], output: [UInt8], cancellable: Bool) {
        var answered: [String: Int] = [:]
        for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            guard let value = try? JSONParser.parse(Array(line)) else {
                fatalError("an answer is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            for answer in value.arrayValue ?? [value] {
                // The server's own notifications ($/progress, notifications/progress) carry a method and no id.
                if answer.objectValue?["method"] != nil, answer.objectValue?["id"] == nil { continue }
                guard let id = answer.objectValue?["id"] else { fatalError("an answer has no id member") }
                if id != .null { answered[JSONSerializer.string(id), default: 0] += 1 }
            }
        }
        var asked: [String: Int] = [:]
        for line in input.split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)) else { continue }
            for request in value.arrayValue ?? [value] {
                guard let object = request.objectValue, let id = object["id"], id != .null else { continue }
                asked[JSONSerializer.string(id), default: 0] += 1
            }
        }
        for (id, count) in answered where count > 1 && asked[id, default: 0] < count {
            fatalError("request id \(id) was answered \(count) times but asked \(asked[id, default: 0])")
        }
        guard !cancellable else { return }
        for (id, count) in asked where count == 1 {
            // Valid or not, a request object with an id is answered with that id — unless its id is not a valid
            // JSON-RPC id (an object, an array, a boolean), which is answered with id null.
            switch try? JSONParser.parse(Array(id.utf8)) {
            case .string, .integer, .real: break
            default: continue
            }
            if answered[id] == nil { fatalError("request id \(id) was never answered") }
        }
    }
}
