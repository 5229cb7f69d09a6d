import Foundation
package import JSONCore
package import JSONRPC
package import Testing

/// A host writing to a server's stdin and reading its stdout, in memory: lines in, lines out, through the server's
/// whole line handler (framing, parsing, classification, validation, dispatch, cancellation, progress) as
/// ``RPCServer/answers(to:registry:configuration:)`` serves them, with no process, pipe or descriptor.
///
/// Every line is handled before any work runs, as if the host wrote its input at once and the work were slow. So
/// what the server does at once (a ready answer, a refusal, a cancellation of work in flight) always comes before
/// what runs later, whatever the machine's load: a transcript that depends on that order needs no sleep.
package struct InMemoryHost: Sendable {
    package let registry: MethodRegistry
    package let configuration: ServerConfiguration

    package init(registry: MethodRegistry, configuration: ServerConfiguration = ServerConfiguration()) {
        self.registry = registry
        self.configuration = configuration
    }

    /// The output lines for `lines` (each given a newline), to end of input.
    package func transcript(_ lines: [String]) async -> [String] {
        await transcript(bytes: lines.flatMap { Array($0.utf8) + [0x0A] })
    }

    /// The output lines for raw input bytes, to end of input.
    package func transcript(bytes: [UInt8]) async -> [String] {
        let output = await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8], Never>) in
            // `answers` blocks its caller until the work is done, so it gets a thread of its own rather than one of
            // the cooperative pool's; and a large stack, since deep JSON is converted recursively.
            let thread = Thread { [self] in
                continuation.resume(
                    returning: RPCServer.answers(to: bytes, registry: registry, configuration: configuration))
            }
            thread.stackSize = 64 << 20
            thread.start()
        }
        var lines = output.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() } else { Issue.record("the output does not end with a newline") }
        return lines
    }

    /// The output lines parsed; a line that is not JSON is recorded as an issue (stdout carries JSON only).
    package func json(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) async -> [JSONValue] {
        Self.parse(await transcript(lines), sourceLocation: sourceLocation)
    }

    /// The same for raw input bytes.
    package func json(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) async -> [JSONValue] {
        Self.parse(await transcript(bytes: bytes), sourceLocation: sourceLocation)
    }

    private static func parse(_ lines: [String], sourceLocation: SourceLocation) -> [JSONValue] {
        lines.compactMap { line in
            guard let value = try? JSONParser.parse(line) else {
                Issue.record("output line is not JSON: \(line)", sourceLocation: sourceLocation)
                return nil
            }
            return value
        }
    }
}
