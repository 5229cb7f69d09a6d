import BoxOfficeCore
import BoxOfficeViews
import BoxOfficeWorker
import Foundation
import JSONCore
import TestSupport
import Testing
import WorkerTestSupport

/// A presentation is the same bytes on every face, because every face asks the one ``Presenter``: a method's `chat`
/// param over JSON-RPC and the CLI's `--format` of that chat format write the same messages, and the `card` param
/// over JSON-RPC, the MCP tool's `image` block and `--format png` the same PNG. All in process, offline. (`movie`
/// is left out on purpose: the CLI's detail screen asks `movie.poster` too and shows the poster, which `movie.detail`
/// alone does not have.)
@Suite("A presentation is the same on every face")
struct PresentationFacesTests {
    /// One presentation asked for on the faces that offer it.
    struct Case: Sendable, CustomTestStringConvertible {
        let command: String
        let method: String
        let params: JSONObject
        let format: CLIFormat
        let run: @Sendable (CLISession, CLIFormat) async -> Int32
        var testDescription: String { "\(command) --format \(format.rawValue)" }
    }

    static func daily(_ format: CLIFormat, _ params: JSONObject) -> Case {
        Case(command: "daily 2023-04-26", method: "boxoffice.daily", params: params, format: format) {
            session, format in
            await session.daily(
                BoxOfficeFlags(date: "2023-04-26", limit: 10), display: CLIDisplay(format: format, excel: false))
        }
    }

    static let cases: [Case] = [
        daily(.slack, ["date": "2023-04-26", "chat": "slack"]),
        daily(.telegramHTML, ["date": "2023-04-26", "chat": "telegram-html"]),
        daily(.markdown, ["date": "2023-04-26", "chat": "markdown"]),
        Case(
            command: "search 범죄와의 전쟁", method: "movie.search", params: ["title": "범죄와의 전쟁", "chat": "discord"],
            format: .discord
        ) { session, format in await session.search(words: ["범죄와의", "전쟁"], director: nil, year: nil, format: format) },
        Case(command: "run 파묘", method: "movie.run", params: ["title": "파묘", "chat": "slack"], format: .slack) {
            session, format in
            await session.run("파묘", limits: runLimits, display: CLIDisplay(format: format, excel: false))
        },
        Case(
            command: "compare 파묘 범죄도시4", method: "movie.compare",
            params: ["movies": ["파묘", "범죄도시4"], "chat": "markdown"], format: .markdown
        ) { session, format in
            await session.compare(
                ["파묘", "범죄도시4"], limits: runLimits, display: CLIDisplay(format: format, excel: false))
        },
    ]

    static let runLimits = RunLimits(through: nil, days: nil, maxCalls: nil, diversity: nil, refresh: false)

    /// What the CLI wrote: text to stdout and bytes (a card) to stdout.
    static func cli(_ worker: OfflineWorker, _ run: (CLISession) async -> Int32) async throws -> (Int32, [UInt8]) {
        let written = Watched([UInt8]())
        let session = try CLISession(
            worker.configuration, color: .never,
            output: CLISession.Output(
                standard: { text in written.update { $0 += Array(text.utf8) } }, error: { _ in },
                binary: { bytes in written.update { $0 += bytes } }))
        let code = await run(session)
        await session.close()
        return (code, written.value)
    }

    @Test("a chat format: the result's chat messages are what --format writes", arguments: cases)
    func chat(_ input: Case) async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let rpc = await worker.jsonRPC.json([request(1, input.method, params: .object(input.params))])
        let chat = try #require(rpc.first?[at: "/result/chat"], "\(rpc)")
        #expect(chat["format"]?.stringValue == input.format.rawValue)
        let messages = try #require(chat["messages"]?.arrayValue)
        let (code, stdout) = try await Self.cli(worker) { await input.run($0, input.format) }
        #expect(code == 0)
        // Markdown is its one text; the other formats one request body a line.
        let written: [JSONValue] =
            input.format == .markdown
            ? [.string(String(decoding: stdout, as: UTF8.self))]
            : try String(decoding: stdout, as: UTF8.self).split(separator: "\n").map {
                try JSONParser.parse(String($0))
            }
        #expect(!messages.isEmpty)
        #expect(written == messages)
    }

    @Test("a run's card: the JSON-RPC card and --format png are the same PNG")
    func runCard() async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let rpc = await worker.jsonRPC.json([request(1, "movie.run", params: ["title": "파묘", "card": "list"])])
        let (code, png) = try await Self.cli(worker) { session in
            await session.run("파묘", limits: Self.runLimits, display: CLIDisplay(format: .png, excel: false))
        }
        guard code == 0 else {
            #expect(rpc.first?[at: "/error/data/reason"] == "not_configured", "\(rpc)")
            return
        }
        let data = try #require(rpc.first?[at: "/result/card/data"]?.stringValue, "\(rpc)")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && Data(base64Encoded: data).map(Array.init) == png)
    }

    @Test(
        "a card: the JSON-RPC card, the MCP image block and --format png are the same PNG", arguments: ["list", "grid"])
    func card(_ layout: String) async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let params: JSONObject = ["date": "2023-04-26", "card": .string(layout)]
        let rpc = await worker.jsonRPC.json([request(1, "boxoffice.daily", params: .object(params))])
        let (code, png) = try await Self.cli(worker) { session in
            var flags = BoxOfficeFlags(date: "2023-04-26", limit: 10)
            flags.layout = ListLayout(rawValue: layout)!
            return await session.daily(flags, display: CLIDisplay(format: .png, excel: false))
        }
        guard code == 0 else {
            // Without the drawing libraries every face refuses the same way: not_configured.
            #expect(rpc.first?[at: "/error/data/reason"] == "not_configured", "\(rpc)")
            return
        }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let data = try #require(rpc.first?[at: "/result/card/data"]?.stringValue, "\(rpc)")
        #expect(Data(base64Encoded: data).map(Array.init) == png)

        let mcp = await worker.mcp.json([
            MCPRequests.initialize(1), MCPRequests.call(2, "boxoffice_daily", .object(params)),
        ])
        let image = mcp.last?[at: "/result/content"]?.arrayValue?.first { $0["type"] == "image" }
        #expect(image?["data"]?.stringValue == data)
    }
}
