import BoxOfficeWorker
import Foundation
import ProcessTestSupport
import TestSupport
import Testing

/// The worker's flags are read two ways: the flag table for the plain forms a host uses on every spawn (no reflection
/// on the start path), swift-argument-parser for everything else. These tests hold the built binary to it: its help
/// lists the table's flags, and the plain forms are read without swift-argument-parser. `FlagTableTests` holds the
/// two parsers to the table flag by flag.
@Suite("Flag parsing: the quick table and swift-argument-parser agree", .spawnsWorkers)
struct FlagParsingTests {
    @Test("the binary's --help lists exactly the table's flags (besides --help and --version)")
    func sameNames() async throws {
        let help = try await WorkerProcess.run([], arguments: ["--help"])
        #expect(help.status == 0)
        let text = help.lines.joined(separator: "\n")
        // The flags are the first words of the lines of the OPTIONS section.
        let options = help.lines.drop { !$0.hasPrefix("OPTIONS:") }.dropFirst().prefix {
            $0.isEmpty || $0.hasPrefix(" ")
        }
        let listed = Set(
            options.compactMap { line -> String? in
                let words = line.split(separator: " ").map { String($0.prefix { $0 != "," && $0 != "=" }) }
                return words.first { $0.hasPrefix("--") }
            })
        #expect(listed.subtracting(["--help", "--version"]) == Set(WorkerFlag.all.map(\.description)), "\(text)")
    }

    @Test("plain forms are read by the table with their values")
    func values() async throws {
        let options = try #require(
            WorkerOptions.quickParse([
                "--max-in-flight", "3", "--ordered", "--max-line-bytes=4096", "--drain-seconds", "0.5",
                "--cache-dir", "/tmp/x", "--today=2026-11-21", "--log-level", "debug", "--diagnostics",
            ]))
        #expect(options.maxInFlight == 3 && options.ordered && options.maxLineBytes == 4096)
        #expect(options.drainSeconds == 0.5 && options.cacheDirectory == "/tmp/x" && options.today == "2026-11-21")
        #expect(options.logLevel == "debug" && options.diagnostics && !options.offline)
    }

    @Test(
        "anything else is left to swift-argument-parser",
        arguments: [
            ["--help"], ["--version"], ["--bogus"], ["--max-in-flight"], ["--max-in-flight", "many"], ["--ordered=yes"],
            ["daily"], ["-h"],
        ])
    func leftToArgumentParser(_ arguments: [String]) {
        #expect(WorkerOptions.quickParse(arguments) == nil)
    }

    @Test("a rule broken through the quick path gets swift-argument-parser's message and exit 64")
    func brokenRule() async throws {
        let run = try await WorkerProcess.run([], arguments: ["--max-in-flight", "0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--max-in-flight must be at least 1"))
        let level = try await WorkerProcess.run([], arguments: ["--log-level", "loud"])
        #expect(level.status == 64 && level.stderr.contains("is not one of"))
    }
}
