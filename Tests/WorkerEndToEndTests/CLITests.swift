import Foundation
import JSONCore
import JSONSchema
import ProcessTestSupport
import TestSupport
import Testing
import WorkerTestSupport

/// The one-shot commands as data: `--format json` is the worker's own answer (same schema, same value), and bad
/// input gets one line and exit 64.
@Suite("CLI commands against the built binary", .spawnsWorkers)
struct CLITests {
    static let offline = ["BOXOFFICE_TODAY": "2026-11-21"]

    func command(_ arguments: [String], environment: [String: String] = offline) async throws -> WorkerRun {
        try await WorkerProcess.run([], arguments: arguments, environment: environment)
    }

    static let jsonCases: [([String], String, JSONValue)] = [
        (["daily", "2023-04-26"], "boxoffice.daily", ["date": "2023-04-26"]),
        (["daily", "20220105", "--limit", "3"], "boxoffice.daily", ["date": "2022-01-05", "limit": 3]),
        (["weekly", "2012-01-01"], "boxoffice.weekly", ["date": "2012-01-01", "period": "weekend"]),
        (["weekly", "2023-04-20", "--period", "week"], "boxoffice.weekly", ["date": "2023-04-20", "period": "week"]),
        (["movie", "20124079"], "movie.detail", ["movieCode": "20124079"]),
        (["search", "범죄와의 전쟁"], "movie.search", ["title": "범죄와의 전쟁"]),
        (["poster", "광해, 왕이 된 남자"], "movie.poster", ["title": "광해, 왕이 된 남자"]),
    ]

    static func resultSchema(_ method: String) throws -> JSONSchema {
        let url = SharedData.repositoryRoot.appending(path: "Schemas/\(method).result.schema.json")
        return try JSONSchema(try JSONParser.parse(Array(try Data(contentsOf: url))))
    }

    @Test(
        "--format json equals the worker's answer to the same request and is valid against the result schema",
        arguments: Self.jsonCases)
    func jsonIsTheWorkersAnswer(_ arguments: [String], _ method: String, _ params: JSONValue) async throws {
        let cli = try await command(arguments + ["--format", "json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let printed = try #require(cli.values.first ?? nil)
        // The worker's side in memory: the same method table the binary serves, with the same "today".
        let worker = try await OfflineWorker(["--today", "2026-11-21"]).jsonRPC.json([
            request(1, method, params: params)
        ])
        let answer = try #require(worker.first?["result"])
        #expect(printed == answer)
        #expect(try Self.resultSchema(method).validate(printed).isEmpty)
    }

    @Test(
        "bad input: one line on stderr and exit 64",
        arguments: [
            ["daily", "2023-02-30"], ["daily", "--from", "2023-04-26", "--to", "2023-04-23", "--format", "csv"],
            ["daily", "2099-01-01"], ["weekly", "--period", "fortnight"],
            ["daily", "--from", "2003-11-01", "--to", "2003-11-20", "--format", "csv"],
            ["daily", "today"], ["daily", "--from", "2023-04-23", "--to", "2023-04-26"],
            ["daily", "--korean", "--foreign"],
        ])
    func badInput(_ arguments: [String]) async throws {
        let run = try await command(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count <= 3 && !lines.isEmpty, "\(run.stderr)")
        #expect(run.lines.isEmpty, "nothing on stdout")
    }

    @Test("--format ndjson gives one entry per line; --version prints the version (VERSION) and the commit")
    func ndjsonAndVersion() async throws {
        let run = try await command(["daily", "2023-04-26", "--format", "ndjson"])
        #expect(run.status == 0)
        #expect(run.values.count == 10 && run.values.allSatisfy { $0?["start"] == "2023-04-26" && $0?["rank"] != nil })
        let version = try await command(["--version"])
        let written = try String(contentsOf: SharedData.repositoryRoot.appending(path: "VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let line = try #require(version.lines.first)
        let prefix = "boxoffice-worker \(written) ("
        #expect(version.lines.count == 1 && line.hasPrefix(prefix) && line.hasSuffix(")"), "\(version.lines)")
        let commit = line.dropFirst(prefix.count).dropLast()
        #expect(commit == "unknown" || (commit.count == 12 && commit.allSatisfy(\.isHexDigit)), "\(line)")
    }
}
