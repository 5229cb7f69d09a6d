import JSONCore
import JSONSchema
import MCP
import TestSupport
import Testing
import WorkerTestSupport

/// `boxoffice-worker mcp`'s catalog served in memory, lines in and lines out, in both eras: the handshake,
/// discovery, every tool, errors as results, progress, the framing rules. What needs a process or a live upstream
/// (cancellation against a slow upstream, end of input, images) is in `WorkerEndToEndTests` (`MCPLiveTests`).
@Suite("MCP transcripts, in memory")
struct MCPTranscriptTests {
    static let modern = MCPRequests.modern

    static func meta(version: String = modern, capabilities: Bool = true, extra: JSONObject = [:]) -> JSONValue {
        MCPRequests.meta(version: version, capabilities: capabilities, extra: extra)
    }

    static func initialize(_ id: Int, version: String = "2025-06-18") -> String {
        MCPRequests.initialize(id, version: version)
    }

    static func call(_ id: Int, _ tool: String, _ arguments: JSONValue = [:], meta: JSONValue? = nil) -> String {
        MCPRequests.call(id, tool, arguments, meta: meta)
    }

    /// Serves `lines` on a new MCP session to end of input; every output line must be a JSON-RPC message.
    func run(_ lines: [String], arguments: [String] = []) async throws -> [JSONValue] {
        let values = try await OfflineWorker(arguments).mcp.json(lines)
        for value in values {
            // stdout carries only MCP messages.
            #expect(value["jsonrpc"] == "2.0" || value.arrayValue != nil, "not a JSON-RPC message: \(value)")
        }
        return values
    }

    func answer(_ values: [JSONValue], id: Int) -> JSONValue? {
        values.first { $0["id"] == .int(id) }
    }

    @Test("the handshake echoes each supported version, and answers an unknown one with its latest legacy version")
    func handshake() async throws {
        let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01", Self.modern]
        let out = try await run(
            versions.enumerated().map { Self.initialize($0.offset + 1, version: $0.element) }
                + [request(nil, "notifications/initialized"), request(99, "ping")])
        for (index, version) in versions.enumerated() {
            let result = try #require(answer(out, id: index + 1)?["result"])
            let expected = version.hasPrefix("20") && version != Self.modern ? version : "2025-11-25"
            #expect(result["protocolVersion"] == .string(expected))
            #expect(result[at: "/serverInfo/name"] == "boxoffice-worker")
            #expect(result[at: "/capabilities/tools"] != nil && result["instructions"]?.stringValue?.isEmpty == false)
            #expect(result["resultType"] == nil, "legacy results carry no modern members")
        }
        #expect(answer(out, id: 99)?["result"] == [:])
        #expect(out.count == versions.count + 1, "the notification is not answered")
    }

    @Test("server/discover as the very first line: versions, capabilities, identity, caching members")
    func discoverFirst() async throws {
        let out = try await run([request(1, "server/discover", params: ["_meta": Self.meta()])])
        let result = try #require(out.first?["result"])
        #expect(result["supportedVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        #expect(result["resultType"] == "complete" && result["cacheScope"] == "public")
        #expect(result["ttlMs"]?.integerValue ?? 0 > 0)
        #expect(result[at: "/_meta/io.modelcontextprotocol~1serverInfo/name"] == "boxoffice-worker")
        #expect(result[at: "/capabilities/resources"] != nil && result[at: "/capabilities/prompts"] != nil)
    }

    @Test("a tools/call as the first line of a fresh process (modern): answered, with resultType")
    func modernCallFirst() async throws {
        let out = try await run([
            Self.call(1, "boxoffice_daily", ["date": "2022-01-05", "limit": 3], meta: Self.meta())
        ])
        let result = try #require(out.first?["result"])
        #expect(result["resultType"] == "complete" && result["isError"] == false)
        #expect(result[at: "/structuredContent/entries"]?.arrayValue?.count == 3)
        #expect(result[at: "/content/0/type"] == "text")
        let text = try #require(result[at: "/content/0/text"]?.stringValue)
        #expect(JSONValue(json: text) == result["structuredContent"], "the text block holds the same JSON")
    }

    @Test("modern _meta: a missing member is -32602, an unsupported version -32022 with supported and requested")
    func modernMetaErrors() async throws {
        let out = try await run([
            request(1, "tools/list", params: ["_meta": Self.meta(capabilities: false)]),
            request(2, "tools/list", params: ["_meta": Self.meta(version: "2099-01-01")]),
            request(3, "tools/list", params: ["_meta": ["io.modelcontextprotocol/clientCapabilities": [:]]]),
            request(4, "ping", params: ["_meta": Self.meta()]),
            request(5, "tools/list", params: ["_meta": Self.meta()]),
        ])
        #expect(answer(out, id: 1)?[at: "/error/code"] == -32602)
        let unsupported = try #require(answer(out, id: 2)?["error"])
        #expect(unsupported["code"] == -32022)
        #expect(unsupported[at: "/data/requested"] == "2099-01-01")
        #expect(unsupported[at: "/data/supported/0"] == "2026-07-28")
        #expect(answer(out, id: 3)?[at: "/error/code"] == -32602)
        #expect(answer(out, id: 4)?[at: "/error/code"] == -32601, "ping is gone in the modern era")
        #expect(answer(out, id: 5)?[at: "/result/resultType"] == "complete")
        #expect(answer(out, id: 5)?[at: "/result/cacheScope"] == "public")
    }

    /// Valid arguments for every tool, offline.
    static let validCalls: [(String, JSONValue)] = [
        ("boxoffice_daily", ["date": "2023-04-26"]),
        ("boxoffice_weekly", ["date": "2012-01-01", "period": "weekend"]),
        ("movie_detail", ["movieCode": "20124079"]),
        ("movie_poster", ["title": "광해, 왕이 된 남자"]),
        ("movie_search", ["title": "범죄와의 전쟁", "limit": 10]),
        ("people_search", ["name": "이병헌"]),
        ("people_detail", ["peopleCode": "90000001", "include": ["movies"]]),
        ("company_search", [:]),
        ("company_detail", ["companyCode": "20122497"]),
        ("codes_list", ["kind": "region"]),
        ("movie_run", ["title": "파묘"]),
        ("movie_compare", ["movies": ["20234675", "범죄도시4"]]),
        ("worker_status", [:]),
    ]

    @Test(
        "tools/list is deterministic; every tool called offline gives structured content valid against its outputSchema"
    )
    func everyTool() async throws {
        let lines =
            [Self.initialize(1), request(2, "tools/list"), request(3, "tools/list")]
            + Self.validCalls.enumerated().map { Self.call(10 + $0.offset, $0.element.0, $0.element.1) }
        let out = try await run(lines)
        let tools = try #require(answer(out, id: 2)?[at: "/result/tools"]?.arrayValue)
        #expect(answer(out, id: 2)?["result"] == answer(out, id: 3)?["result"])
        #expect(tools.compactMap { $0["name"]?.stringValue } == Self.validCalls.map(\.0))
        for tool in tools {
            #expect(tool["title"]?.stringValue?.isEmpty == false && tool["description"]?.stringValue?.isEmpty == false)
            #expect(tool[at: "/inputSchema/type"] == "object" && tool[at: "/outputSchema/type"] == "object")
            #expect(tool[at: "/inputSchema/properties/_meta"] == nil)
            #expect(tool[at: "/annotations/readOnlyHint"] == true && tool[at: "/annotations/idempotentHint"] == true)
        }
        for (offset, (name, _)) in Self.validCalls.enumerated() {
            let result = try #require(answer(out, id: 10 + offset)?["result"], "\(name)")
            #expect(result["isError"] == false, "\(name): \(result)")
            let tool = try #require(tools.first { $0["name"] == .string(name) })
            let schema = try JSONSchema(try #require(tool["outputSchema"]))
            let structured = try #require(result["structuredContent"])
            #expect(schema.validate(structured).isEmpty, "\(name): \(schema.validate(structured))")
        }
    }

    /// The ceiling on what `tools/list` costs a model's context before any call (39,287 bytes for six tools before
    /// the tool schemas were made for models; a size, not a time): 1,600 bytes a tool on average (1,811 with eleven
    /// tools, before the members of a result's objects were listed by name), each tool under ``toolCeiling``.
    static let averageCeiling = 1_600
    /// No tool costs more than the box office's, the largest.
    static let toolCeiling = 3_300

    @Test("tools/list takes 1,600 bytes a tool on average with every output schema kept, none over 3.3 KB; printed")
    func toolsListSize() async throws {
        let lines = try await OfflineWorker().mcp.transcript([Self.initialize(1), request(2, "tools/list")])
        let listing = try #require(lines.first { $0.contains("\"id\":2") })
        let tools = try #require(try JSONParser.parse(listing)[at: "/result/tools"]?.arrayValue)
        for tool in tools {
            let bytes = JSONSerializer.string(tool).utf8.count
            print("tools/list: \(tool["name"]?.stringValue ?? "?") \(bytes) bytes")
            #expect(bytes <= Self.toolCeiling, "\(tool["name"] ?? nil): \(bytes) bytes")
            #expect(tool["outputSchema"]?.objectValue?["properties"] != nil, "\(tool["name"] ?? nil) keeps its shape")
        }
        print("tools/list: \(listing.utf8.count) bytes in all")
        // What made it fit, and what a model still reads: a long enum its description spells out is listed once, a
        // short one stays; a parameter an earlier tool describes is described by reference.
        let daily = try #require(tools.first { $0["name"] == "boxoffice_daily" })
        let weekly = try #require(tools.first { $0["name"] == "boxoffice_weekly" })
        #expect(daily[at: "/inputSchema/properties/area/enum"] == nil)
        #expect(daily[at: "/inputSchema/properties/area/description"]?.stringValue?.contains("0105017 세종시") == true)
        #expect(daily[at: "/inputSchema/properties/nation/enum"] == ["korean", "foreign"])
        #expect(weekly[at: "/inputSchema/properties/area/description"] == "As in boxoffice_daily.")
        #expect(weekly[at: "/inputSchema/properties/period/description"]?.stringValue?.contains("Fri–Sun") == true)
        // A result's members with their types; its objects' members by name, their values where a vocabulary.
        #expect(daily[at: "/outputSchema/properties/entries/type"] == "array")
        #expect(daily[at: "/outputSchema/properties/entries/items/properties/title"] == [:])
        #expect(
            daily[at: "/outputSchema/properties/entries/items/properties/trend/enum"] == ["new", "up", "down", "same"])
        let average = listing.utf8.count / tools.count
        print("tools/list: \(average) bytes a tool on average")
        #expect(average <= Self.averageCeiling, "\(listing.utf8.count) bytes for \(tools.count) tools")
    }

    @Test("server/discover without the modern _meta says what the request lacks instead of Method not found")
    func discoverWithoutMeta() async throws {
        let out = try await run([request(1, "server/discover"), request(2, "server/discover", params: [:])])
        for id in [1, 2] {
            let error = try #require(answer(out, id: id)?["error"])
            #expect(error["code"] == -32602)
            let message = error["message"]?.stringValue ?? ""
            #expect(message.contains("io.modelcontextprotocol/protocolVersion") && message.contains("initialize"))
            #expect(error[at: "/data/supported"] == .array(MCPVersion.modern.map(JSONValue.string)))
        }
    }

    @Test("invalid arguments and domain failures are results with isError; an unknown tool is -32602")
    func errorsAsResults() async throws {
        let out = try await run([
            Self.initialize(1),
            Self.call(2, "boxoffice_daily", ["date": "2022-02-30"]),
            Self.call(3, "boxoffice_daily", ["limit": 99]),
            Self.call(4, "movie_detail", [:]),
            Self.call(5, "boxoffice_daily", ["date": "2020-01-01"]),
            Self.call(6, "nope"),
            Self.call(7, "boxoffice_daily", "not an object"),
        ])
        for id in [2, 3, 4, 7] {
            let result = try #require(answer(out, id: id)?["result"])
            #expect(result["isError"] == true && result[at: "/structuredContent/error/code"] == -32602, "\(id)")
            #expect(result[at: "/content/0/text"]?.stringValue?.contains("Invalid arguments") == true)
        }
        let offline = try #require(answer(out, id: 5)?["result"])
        #expect(offline["isError"] == true)
        #expect(offline[at: "/structuredContent/error/data/reason"] == "offline_unavailable")
        #expect(offline[at: "/content/0/text"]?.stringValue?.contains("offline_unavailable") == true)
        #expect(answer(out, id: 6)?[at: "/error/code"] == -32602)
    }

    @Test("progress with include flows as notifications/progress with the token, increasing, before the result")
    func progress() async throws {
        let out = try await run([
            Self.initialize(1),
            Self.call(
                2, "boxoffice_daily", ["date": "2022-01-05", "include": ["detail"]], meta: ["progressToken": "p-1"]),
        ])
        let notes = out.filter { $0["method"] == "notifications/progress" }
        #expect(notes.count == 10)
        let values = notes.compactMap { $0[at: "/params/progress"]?.numberValue }
        #expect(values == values.sorted() && Set(values).count == values.count)
        #expect(notes.allSatisfy { $0[at: "/params/progressToken"] == "p-1" && $0[at: "/params/total"] == 10 })
        let last = try #require(out.lastIndex { $0["method"] == "notifications/progress" })
        let answerIndex = try #require(out.firstIndex { $0["id"] == 2 })
        #expect(last < answerIndex)
        #expect(out[answerIndex][at: "/result/structuredContent/entries/0/detail/movieCode"] != nil)
    }

    @Test("id null and batches are -32600, except batches in a 2025-03-26 session")
    func framing() async throws {
        let out = try await run([
            Self.initialize(1),
            #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            "[\(request(2, "ping"))]",
        ])
        let errors = out.filter { $0["id"] == .null }
        #expect(errors.count == 2 && errors.allSatisfy { $0[at: "/error/code"] == -32600 })
        let batched = try await run([
            Self.initialize(1, version: "2025-03-26"), "[\(request(2, "ping")),\(request(3, "ping"))]",
        ])
        let array = try #require(batched.first { $0.arrayValue != nil }?.arrayValue)
        #expect(Set(array.compactMap { $0["id"]?.integerValue }) == [2, 3])
    }

    @Test(
        "resources: templates, offline recordings listed, read as application/json; the briefing prompt embeds the day")
    func resourcesAndPrompt() async throws {
        let out = try await run([
            Self.initialize(1),
            request(2, "resources/templates/list"),
            request(3, "resources/list"),
            request(4, "resources/read", params: ["uri": "boxoffice://daily/2023-04-26"]),
            request(5, "resources/read", params: ["uri": "boxoffice://nothing/here"]),
            request(6, "prompts/list"),
            request(7, "prompts/get", params: ["name": "boxoffice_briefing", "arguments": ["date": "2023-04-26"]]),
            request(8, "resources/read", params: ["uri": "boxoffice://weekly/weekend/2012-01-01"]),
        ])
        let templates = answer(out, id: 2)?[at: "/result/resourceTemplates"]?.arrayValue ?? []
        #expect(
            templates.compactMap { $0["uriTemplate"]?.stringValue } == [
                "boxoffice://daily/{date}", "boxoffice://weekly/{period}/{date}", "boxoffice://movie/{movieCode}",
            ])
        let listed =
            answer(out, id: 3)?[at: "/result/resources"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        #expect(listed.contains("boxoffice://daily/2023-04-26") && listed.contains("boxoffice://movie/20124079"))
        let contents = try #require(answer(out, id: 4)?[at: "/result/contents/0"])
        #expect(contents["mimeType"] == "application/json" && contents["uri"] == "boxoffice://daily/2023-04-26")
        #expect(JSONValue(json: contents["text"]?.stringValue ?? "{}")["kind"] == "daily")
        #expect(answer(out, id: 5)?[at: "/error/code"] == -32002)
        #expect(answer(out, id: 6)?[at: "/result/prompts/0/name"] == "boxoffice_briefing")
        let messages = try #require(answer(out, id: 7)?[at: "/result/messages"]?.arrayValue)
        #expect(messages.count == 2 && messages[1][at: "/content/type"] == "resource")
        #expect(messages[1][at: "/content/resource/uri"] == "boxoffice://daily/2023-04-26")
        #expect(answer(out, id: 8)?[at: "/result/contents/0/text"]?.stringValue?.contains("\"weekend\"") == true)
    }
}
