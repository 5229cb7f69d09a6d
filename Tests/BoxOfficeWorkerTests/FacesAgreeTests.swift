import BoxOfficeCore
import BoxOfficeViews
import BoxOfficeWorker
import Foundation
import JSONCore
import TestSupport
import Testing
import WorkerTestSupport

/// The three faces are one method: for each input, the JSON-RPC result, the MCP tool's `structuredContent` and the
/// CLI's `--format json` are the same value, and a refusal carries the same message on all three. All in process:
/// the worker's method table served in memory, and the CLI's session writing to memory.
@Suite("JSON-RPC, MCP and the CLI agree, input by input")
struct FacesAgreeTests {
    /// One input in both forms: the CLI command (its session call) and the method's params.
    struct Case: Sendable, CustomTestStringConvertible {
        let command: String
        let method: String
        let params: JSONObject
        let run: @Sendable (CLISession) async -> Int32
        var testDescription: String { command }
    }

    static let today = "2026-11-21"

    static func daily(
        _ command: String, _ params: JSONObject, _ edit: @escaping @Sendable (inout BoxOfficeFlags) -> Void
    )
        -> Case
    {
        Case(command: "daily " + command, method: "boxoffice.daily", params: params) { session in
            var flags = BoxOfficeFlags(date: nil, limit: 10)
            edit(&flags)
            return await session.daily(flags, display: CLIDisplay(format: .json, excel: false))
        }
    }

    static func weekly(
        _ command: String, period: String = "weekend", _ params: JSONObject,
        _ edit: @escaping @Sendable (inout BoxOfficeFlags) -> Void = { _ in }
    ) -> Case {
        Case(command: "weekly " + command, method: "boxoffice.weekly", params: params) { session in
            var flags = BoxOfficeFlags(date: nil, limit: 10)
            edit(&flags)
            return await session.weekly(flags, period: period, display: CLIDisplay(format: .json, excel: false))
        }
    }

    static let cases: [Case] =
        [
            daily("2023-04-26", ["date": "2023-04-26"]) { $0.date = "2023-04-26" },
            daily("20220105 --limit 3", ["date": "2022-01-05", "limit": 3]) {
                $0.date = "20220105"
                $0.limit = 3
            },
            daily("(latest recorded)", [:]) { _ in },
            daily("yesterday (not recorded)", ["date": "2026-11-20"]) { $0.date = "yesterday" },
            daily("today", ["date": "2026-11-21"]) { $0.date = "today" },
            daily("2099-01-01", ["date": "2099-01-01"]) { $0.date = "2099-01-01" },
            daily("2003-11-10", ["date": "2003-11-10"]) { $0.date = "2003-11-10" },
            daily("--limit 0", ["limit": 0]) { $0.limit = 0 },
            daily("--limit 11", ["limit": 11]) { $0.limit = 11 },
            daily("--area 123", ["area": "123"]) { $0.area = "123" },
            daily("2023-04-26 --korean", ["date": "2023-04-26", "nation": "korean"]) {
                $0.date = "2023-04-26"
                $0.korean = true
            },
            daily("2023-04-26 --diversity", ["date": "2023-04-26", "multiMovie": true]) {
                $0.date = "2023-04-26"
                $0.diversity = true
            },
            daily("2023-04-26 --with-details", ["date": "2023-04-26", "include": ["detail"]]) {
                $0.date = "2023-04-26"
                $0.withDetails = true
            },
            daily("2023-04-26 --with-details --with-posters", ["date": "2023-04-26", "include": ["detail", "poster"]]) {
                $0.date = "2023-04-26"
                $0.withDetails = true
                $0.withPosters = true
            },
            daily("2023-04-26 --limit 5 --with-posters", ["date": "2023-04-26", "limit": 5, "include": ["poster"]]) {
                $0.date = "2023-04-26"
                $0.limit = 5
                $0.withPosters = true
            },
            weekly("2012-01-01", ["date": "2012-01-01"]) { $0.date = "2012-01-01" },
            weekly("2023-04-20 --period week", period: "week", ["date": "2023-04-20", "period": "week"]) {
                $0.date = "2023-04-20"
            },
            weekly("2023-04-20 --period weekdays", period: "weekdays", ["date": "2023-04-20", "period": "weekdays"]) {
                $0.date = "2023-04-20"
            },
            weekly("(latest recorded weekend)", [:]),
            weekly("2026-11-20 (not finished)", ["date": "2026-11-20"]) { $0.date = "2026-11-20" },
            weekly("2003-11-01", ["date": "2003-11-01"]) { $0.date = "2003-11-01" },
            weekly("2012-01-01 --limit 1", ["date": "2012-01-01", "limit": 1]) {
                $0.date = "2012-01-01"
                $0.limit = 1
            },
            Case(command: "movie 20124079", method: "movie.detail", params: ["movieCode": "20124079"]) {
                await $0.movie(code: "20124079", download: false, format: .json)
            },
            Case(command: "movie 19990001 (not recorded)", method: "movie.detail", params: ["movieCode": "19990001"]) {
                await $0.movie(code: "19990001", download: false, format: .json)
            },
            Case(command: "movie x", method: "movie.detail", params: ["movieCode": "x"]) {
                await $0.movie(code: "x", download: false, format: .json)
            },
            Case(command: "search 범죄와의 전쟁", method: "movie.search", params: ["title": "범죄와의 전쟁"]) {
                await $0.search(words: ["범죄와의", "전쟁"], director: nil, year: nil, format: .json)
            },
            Case(command: "search --director 윤종빈", method: "movie.search", params: ["director": "윤종빈"]) {
                await $0.search(words: [], director: "윤종빈", year: nil, format: .json)
            },
            Case(command: "search (nothing)", method: "movie.search", params: [:]) {
                await $0.search(words: [], director: nil, year: nil, format: .json)
            },
            Case(command: "poster 광해, 왕이 된 남자", method: "movie.poster", params: ["title": "광해, 왕이 된 남자"]) {
                await $0.poster(words: ["광해,", "왕이", "된", "남자"], code: nil, download: false, format: .json)
            },
            Case(command: "poster 20124079", method: "movie.poster", params: ["movieCode": "20124079"]) {
                await $0.poster(words: ["20124079"], code: nil, download: false, format: .json)
            },
            Case(command: "poster --code 20124079", method: "movie.poster", params: ["movieCode": "20124079"]) {
                await $0.poster(words: [], code: "20124079", download: false, format: .json)
            },
            Case(
                command: "poster 광해 --code 20124079", method: "movie.poster",
                params: ["title": "광해", "movieCode": "20124079"]
            ) {
                await $0.poster(words: ["광해"], code: "20124079", download: false, format: .json)
            },
            Case(
                command: "poster 광해 --download (offline)", method: "movie.poster",
                params: ["title": "광해", "download": true]
            ) {
                await $0.poster(words: ["광해"], code: nil, download: true, format: .json)
            },
            daily(
                "2023-04-26 --area 서울 (names resolve; offline has the whole country only)",
                ["date": "2023-04-26", "area": "서울"]
            ) {
                $0.date = "2023-04-26"
                $0.area = "서울"
            },
            daily("--area Mars", ["area": "Mars"]) { $0.area = "Mars" },
        ] + peopleCases + runCases

    static let json = CLIDisplay(format: .json, excel: false)

    static func limits(through: String? = nil, days: Int? = nil) -> RunLimits {
        RunLimits(through: through, days: days, maxCalls: nil, diversity: nil, refresh: false)
    }

    /// Runs and comparisons (the recorded runs of 파묘 and 범죄도시4).
    static let runCases: [Case] = [
        Case(command: "run 파묘", method: "movie.run", params: ["title": "파묘"]) {
            await $0.run("파묘", limits: limits(), display: json)
        },
        Case(command: "run 20234675 --days 30", method: "movie.run", params: ["movieCode": "20234675", "days": 30]) {
            await $0.run("20234675", limits: limits(days: 30), display: json)
        },
        Case(
            command: "run 20228797 --through 2024-05-01", method: "movie.run",
            params: ["movieCode": "20228797", "through": "2024-05-01"]
        ) {
            await $0.run("20228797", limits: limits(through: "2024-05-01"), display: json)
        },
        Case(command: "run 파묘 --days 0", method: "movie.run", params: ["title": "파묘", "days": 0]) {
            await $0.run("파묘", limits: limits(days: 0), display: json)
        },
        Case(command: "run 없는 영화 (not recorded)", method: "movie.run", params: ["title": "없는 영화"]) {
            await $0.run("없는 영화", limits: limits(), display: json)
        },
        Case(
            command: "run 파묘 --through 2024-01-01 (before it opens)", method: "movie.run",
            params: ["title": "파묘", "through": "2024-01-01"]
        ) {
            await $0.run("파묘", limits: limits(through: "2024-01-01"), display: json)
        },
        Case(command: "compare 파묘 범죄도시4", method: "movie.compare", params: ["movies": ["파묘", "범죄도시4"]]) {
            await $0.compare(["파묘", "범죄도시4"], limits: limits(), display: json)
        },
        Case(command: "compare 파묘 (one film)", method: "movie.compare", params: ["movies": ["파묘"]]) {
            await $0.compare(["파묘"], limits: limits(), display: json)
        },
    ]

    /// An outcome without what a run cost (`calls`, `plannedCalls`): a face that comes second finds the lists the
    /// first one fetched in memory, and calls still in flight when a run ends may be counted or not.
    static func withoutCost(_ outcome: Outcome) -> Outcome {
        func strip(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(var object):
                if case .object(var coverage)? = object["coverage"] {
                    coverage["calls"] = nil
                    coverage["plannedCalls"] = nil
                    object["coverage"] = .object(coverage)
                }
                return .object(object.mapValues(strip))
            case .array(let values): return .array(values.map(strip))
            default: return value
            }
        }
        if case .result(let value) = outcome { return .result(strip(value)) }
        return outcome
    }

    /// People, companies and code lists.
    static let peopleCases: [Case] =
        [
            Case(command: "people (newest)", method: "people.search", params: [:]) {
                await $0.people(words: [], film: nil, movies: false, display: json)
            },
            Case(command: "people 이병헌", method: "people.search", params: ["name": "이병헌"]) {
                await $0.people(words: ["이병헌"], film: nil, movies: false, display: json)
            },
            Case(command: "people 봉준호 (not recorded)", method: "people.search", params: ["name": "봉준호"]) {
                await $0.people(words: ["봉준호"], film: nil, movies: false, display: json)
            },
            Case(command: "people 20164556", method: "people.detail", params: ["peopleCode": "20164556"]) {
                await $0.people(words: ["20164556"], film: nil, movies: false, display: json)
            },
            Case(
                command: "people 90000001 --movies", method: "people.detail",
                params: ["peopleCode": "90000001", "include": ["movies"]]
            ) {
                await $0.people(words: ["90000001"], film: nil, movies: true, display: json)
            },
            Case(
                command: "people 20164556 --movies (films not recorded)", method: "people.detail",
                params: ["peopleCode": "20164556", "include": ["movies"]]
            ) {
                await $0.people(words: ["20164556"], film: nil, movies: true, display: json)
            },
            Case(command: "people 11111111 (not recorded)", method: "people.detail", params: ["peopleCode": "11111111"])
            {
                await $0.people(words: ["11111111"], film: nil, movies: false, display: json)
            },
            Case(command: "company (newest)", method: "company.search", params: [:]) {
                await $0.company(words: [], ceo: nil, part: nil, display: json)
            },
            Case(command: "company --part x-y", method: "company.search", params: ["part": "x-y"]) {
                await $0.company(words: [], ceo: nil, part: "x-y", display: json)
            },
            Case(command: "company 20122497", method: "company.detail", params: ["companyCode": "20122497"]) {
                await $0.company(words: ["20122497"], ceo: nil, part: nil, display: json)
            },
            Case(command: "company 20100603", method: "company.detail", params: ["companyCode": "20100603"]) {
                await $0.company(words: ["20100603"], ceo: nil, part: nil, display: json)
            },
            Case(command: "codes planets", method: "codes.list", params: ["kind": "planets"]) {
                await $0.codes(kind: "planets", display: json)
            },
        ]
        + CodeKind.allCases.map { kind in
            Case(command: "codes \(kind.rawValue)", method: "codes.list", params: ["kind": .string(kind.rawValue)]) {
                await $0.codes(kind: kind.rawValue, display: json)
            }
        }

    /// What a face answered: a result, or a refusal's message.
    enum Outcome: Equatable, CustomStringConvertible {
        case result(JSONValue)
        case refused(String)

        var description: String {
            switch self {
            case .result(let value): "result \(JSONSerializer.string(value).prefix(120))"
            case .refused(let message): "refused: \(message)"
            }
        }
    }

    @Test("the same input gives the same result or the same message on every face", arguments: cases)
    func facesAgree(_ input: Case) async throws {
        let worker = try OfflineWorker(["--today", Self.today])
        let tool = input.method.replacingOccurrences(of: ".", with: "_")

        let rpc = await worker.jsonRPC.json([request(1, input.method, params: .object(input.params))])
        var viaRPC: Outcome =
            if let result = rpc.first?["result"] { .result(result) } else {
                .refused(rpc.first?[at: "/error/message"]?.stringValue ?? "no error message in \(rpc)")
            }

        let mcp = await worker.mcp.json([MCPRequests.initialize(1), MCPRequests.call(2, tool, .object(input.params))])
        let content = mcp.last?[at: "/result/structuredContent"]
        var viaMCP: Outcome =
            if mcp.last?[at: "/result/isError"] == true {
                .refused(content?[at: "/error/message"]?.stringValue ?? "no error message in \(mcp)")
            } else {
                .result(content ?? .null)
            }

        let written = Watched((standard: "", error: ""))
        let session = try CLISession(
            worker.configuration, color: .never,
            output: CLISession.Output(
                standard: { text in written.update { $0.standard += text } },
                error: { text in written.update { $0.error += text } }))
        let code = await input.run(session)
        await session.close()
        let (stdout, stderr) = written.value
        var viaCLI: Outcome
        if code == 0 {
            viaCLI = .result(try JSONParser.parse(stdout))
        } else {
            #expect(stdout.isEmpty, "nothing on stdout when refused")
            #expect(stderr.hasPrefix("boxoffice-worker: ") && stderr.filter { $0 == "\n" }.count == 1, "\(stderr)")
            viaCLI = .refused(String(stderr.dropFirst("boxoffice-worker: ".count).prefix { $0 != "\n" }))
        }

        let costless = input.method == "movie.run" || input.method == "movie.compare"
        if costless {
            (viaRPC, viaMCP, viaCLI) = (Self.withoutCost(viaRPC), Self.withoutCost(viaMCP), Self.withoutCost(viaCLI))
        }
        #expect(viaRPC == viaMCP, "JSON-RPC vs MCP")
        switch (viaRPC, viaCLI) {
        case (.refused(let message), .refused(let line)):
            // The CLI's line is the message, and for a failure of the call (not a refusal of its input) its reason.
            #expect(line == message || line.hasPrefix(message + " ("), "JSON-RPC vs CLI: \(message) / \(line)")
            #expect(code == (rpc.first?[at: "/error/code"] == -32602 ? 64 : 1), "exit code \(code)")
        default:
            #expect(viaRPC == viaCLI, "JSON-RPC vs CLI")
        }
    }

    @Test("status is worker.status's result (but for what differs between two calls: the clock and the counters)")
    func status() async throws {
        let worker = try OfflineWorker(["--today", Self.today])
        let rpc = await worker.jsonRPC.json([request(1, "worker.status")])
        let written = Watched("")
        let session = try CLISession(
            worker.configuration, color: .never,
            output: CLISession.Output(standard: { text in written.update { $0 += text } }, error: { _ in }))
        #expect(await session.status(format: .json) == 0)
        await session.close()
        func steady(_ value: JSONValue?) -> JSONValue? {
            guard var object = value?.objectValue else { return nil }
            for volatile in ["startedAt", "uptimeSeconds", "requests"] { object[volatile] = nil }
            return .object(object)
        }
        let cli = try JSONParser.parse(written.value)
        #expect(steady(cli) == steady(rpc.first?["result"]) && steady(cli) != nil)
        #expect(cli[at: "/requests/requests"] == 0, "the CLI served no request")
    }

    @Test("every face and every method is in the table: 30 inputs or more")
    func coverage() {
        #expect(Self.cases.count >= 30)
        #expect(
            Set(Self.cases.map(\.method)) == [
                "boxoffice.daily", "boxoffice.weekly", "movie.detail", "movie.search", "movie.poster", "people.search",
                "people.detail", "company.search", "company.detail", "codes.list", "movie.run", "movie.compare",
            ])
    }
}
