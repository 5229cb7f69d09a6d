import BoxOfficeMethods
import BoxOfficeWorker
import Foundation
import JSONCore
import JSONSchema
import ProcessTestSupport
import TestSupport
import Testing

/// The live path over real HTTP: the worker binary against a fake KOBIS + Kakao on 127.0.0.1.
@Suite("Live path against a fake upstream on loopback", .spawnsWorkers)
struct LivePathTests {
    static let arguments = ["--ordered", "--today", "2026-11-21", "--timeout", "0.5"]

    func run(_ lines: [String], upstream: RecordedUpstream, environment extra: [String: String] = [:]) async throws
        -> WorkerRun
    {
        let run = try await WorkerProcess.run(
            lines, arguments: Self.arguments, environment: upstream.environment.merging(extra) { $1 }, timeout: 60)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        for key in [RecordedUpstream.kobisKey, RecordedUpstream.kakaoKey] {
            #expect(!run.lines.joined().contains(key), "a key reached stdout")
            #expect(!run.stderr.contains(key), "a key reached stderr")
        }
        return run
    }

    func validate(_ method: String, _ result: JSONValue?) throws {
        let schema = try SchemaCatalog.compiled("\(method).result.schema.json")
        let result = try #require(result, "\(method) has no result")
        #expect(schema.validate(result).isEmpty, "\(method): \(schema.validate(result))")
    }

    @Test("every method end to end; keys only where they belong, never in output")
    func everyMethod() async throws {
        let upstream = try RecordedUpstream()
        let out = try await run(
            [
                request(
                    1, "boxoffice.daily",
                    params: ["date": "2022-01-05", "include": ["detail", "poster"], "_meta": ["progressToken": "p"]]),
                request(2, "boxoffice.weekly", params: ["date": "2012-01-01"]),
                request(3, "movie.detail", params: ["movieCode": "20124079"]),
                request(4, "movie.poster", params: ["title": "광해, 왕이 된 남자"]),
                request(5, "movie.search", params: ["title": "범죄와의 전쟁"]),
                request(6, "worker.status"),
            ], upstream: upstream
        ).json()
        let responses = out.filter { $0["id"] != nil }
        #expect(responses.count == 6)
        try validate("boxoffice.daily", responses[0]["result"])
        try validate("boxoffice.weekly", responses[1]["result"])
        try validate("movie.detail", responses[2]["result"])
        try validate("movie.poster", responses[3]["result"])
        try validate("movie.search", responses[4]["result"])
        try validate("worker.status", responses[5]["result"])
        #expect(responses[0][at: "/result/source/origin"] == "kobis")
        #expect(responses[0][at: "/result/entries/0/detail/title"] == "경관의 피")
        #expect(responses[0][at: "/result/entries/0/poster/found"] == true)
        #expect(responses[0][at: "/result/entries/9/detail/movieCode"] != nil)
        #expect(out.filter { $0["method"] == "notifications/progress" }.count == 20)
        #expect(responses[1][at: "/result/yearWeek"] == "201152")
        #expect(responses[5][at: "/result/mode"] == "live")

        let daily = try #require(upstream.server.requests.first { $0.path.hasSuffix("searchDailyBoxOfficeList.json") })
        #expect(daily.target.hasSuffix("&key=\(RecordedUpstream.kobisKey)"), "the key goes last: \(daily.target)")
        #expect(daily.query["itemPerPage"] == "10" && daily.query["targetDt"] == "20220105")
        let weekly = try #require(
            upstream.server.requests.first { $0.path.hasSuffix("searchWeeklyBoxOfficeList.json") })
        #expect(weekly.query["weekGb"] == "1" && weekly.query["targetDt"] == "20120101")
        let kakao = upstream.server.requests.filter { $0.path == "/kakao/v2/search/image" }
        #expect(kakao.allSatisfy { $0.headers["authorization"] == "KakaoAK \(RecordedUpstream.kakaoKey)" })
        #expect(kakao.allSatisfy { !$0.target.contains(RecordedUpstream.kakaoKey) && $0.query["size"] == "1" })
        // One search per entry (the daily poster part), plus movie.poster's own: "<title> 영화 포스터" each.
        let titles = responses[0][at: "/result/entries"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        #expect(titles.count == 10)
        #expect(
            kakao.compactMap { $0.query["query"] }.sorted()
                == (titles + ["광해, 왕이 된 남자"]).map { "\($0) 영화 포스터" }.sorted())
    }

    @Test("defaults: daily asks for yesterday in Seoul, weekly for the latest finished weekend; BOXOFFICE_TODAY works")
    func defaults() async throws {
        let upstream = try RecordedUpstream()
        let run = try await WorkerProcess.run(
            [
                request(1, "boxoffice.daily"), request(2, "boxoffice.weekly"),
                request(3, "boxoffice.weekly", params: ["period": "weekdays", "date": "2026-11-18"]),
            ],
            arguments: ["--ordered"],
            environment: upstream.environment.merging(["BOXOFFICE_TODAY": "2026-11-21"]) { $1 }
        )
        #expect(run.status == 0)
        let daily = upstream.server.requests.filter { $0.path.hasSuffix("searchDailyBoxOfficeList.json") }
        #expect(daily.map { $0.query["targetDt"] } == ["20261120"])
        // Requests run concurrently, so they reach the upstream in either order (--ordered orders answers only).
        let weekly = upstream.server.requests.filter { $0.path.hasSuffix("searchWeeklyBoxOfficeList.json") }
        let periods = Set(weekly.map { "\($0.query["weekGb"] ?? "?") \($0.query["targetDt"] ?? "?")" })
        #expect(periods == ["1 20261115", "2 20261119"])
    }

    @Test("20 identical calls at once reach the upstream once")
    func coalescing() async throws {
        let upstream = try RecordedUpstream()
        let lines = (1...20).map { request(.int($0), "boxoffice.daily", params: ["date": "2023-01-11"]) }
        let out = try await run(lines, upstream: upstream).json()
        #expect(out.count == 20 && out.allSatisfy { $0[at: "/result/entries/0/title"] == "경관의 피" })
        #expect(upstream.dailyRequests("20230111") == 1)
    }

    @Test("worker.status counts the upstream calls made")
    func counters() async throws {
        let upstream = try RecordedUpstream()
        let worker = try WorkerProcess(arguments: Self.arguments, environment: upstream.environment)
        worker.send(request(1, "boxoffice.daily", params: ["date": "2022-01-05", "include": ["detail"]]))
        await worker.waitForLines(1)
        worker.send(request(2, "worker.status"))
        await worker.waitForLines(2)
        worker.closeInput()
        #expect(await worker.waitForExit() == 0)
        let status = try #require(worker.json().first { $0["id"] == 2 })
        #expect(status[at: "/result/upstream/kobis/calls"] == 11)
        #expect(status[at: "/result/upstream/kakao/calls"] == 0)
        #expect(status[at: "/result/upstream/kobis/keySet"] == true)
        #expect(!worker.lines.joined().contains(RecordedUpstream.kobisKey))
    }

    @Test("faults: each the exact error of protocol.md §4, and the worker still serving")
    func faults() async throws {
        let upstream = try RecordedUpstream()
        var lines: [String] = []
        for fault in RecordedUpstream.Fault.allCases
        where ![.slowOK, .stalled, .retryAfterShort, .retryAfterLong].contains(fault) {
            let date =
                "\(fault.rawValue.prefix(4))-\(fault.rawValue.dropFirst(4).prefix(2))-\(fault.rawValue.suffix(2))"
            lines.append(request(.string(fault.rawValue), "boxoffice.daily", params: ["date": .string(date)]))
            lines.append(request(.string("ping-" + fault.rawValue), "ping"))
        }
        lines.append(request("unknown", "movie.detail", params: ["movieCode": "99999999"]))
        lines.append(request("kakao-quota", "movie.poster", params: ["title": "한도"]))
        lines.append(request("kakao-none", "movie.poster", params: ["title": "없는 영화"]))
        let out = try await run(lines, upstream: upstream).json()
        func answer(_ id: String) -> JSONValue? { out.first { $0["id"] == .string(id) } }
        func expectError(
            _ id: String, _ code: Int64, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(
                answer(id)?[at: "/error/code"] == .integer(code), "\(id): \(String(describing: answer(id)))",
                sourceLocation: sourceLocation)
            #expect(answer(id)?[at: "/error/data/reason"] == .string(reason), sourceLocation: sourceLocation)
        }
        for fault in RecordedUpstream.Fault.allCases
        where ![.slowOK, .stalled, .retryAfterShort, .retryAfterLong].contains(fault) {
            #expect(answer("ping-" + fault.rawValue)?["result"] == [:], "not serving after \(fault)")
        }
        #expect(answer("20230101")?[at: "/result/entries/0/title"] == "경관의 피")
        #expect(upstream.dailyRequests("20230101") == 2)
        expectError("20230102", -31001, "upstream_unavailable")
        #expect(
            answer("20230102")?[at: "/error/data/status"] == 503
                && answer("20230102")?[at: "/error/data/retryable"] == true)
        #expect(upstream.dailyRequests("20230102") == 3)
        expectError("20230103", -31001, "upstream_unavailable")
        expectError("20230104", -31001, "upstream_unavailable")
        expectError("20230105", -31001, "upstream_unavailable")
        expectError("20230106", -31003, "upstream_malformed")
        #expect(answer("20230106")?[at: "/error/data/path"] == "")
        expectError("20230107", -31002, "upstream_rejected")
        #expect(answer("20230107")?[at: "/error/data/upstreamCode"] == "320010")
        #expect(upstream.dailyRequests("20230107") == 1)
        expectError("20230108", -31005, "quota_exhausted")
        #expect(answer("20230109")?[at: "/result/entries"] == [])
        expectError("20230110", -31003, "upstream_malformed")
        expectError("20230112", -31003, "upstream_malformed")  // the first of its two answers (SecurityEndToEndTests)
        expectError("unknown", -31004, "not_found")
        #expect(answer("unknown")?[at: "/error/data/movieCode"] == "99999999")
        expectError("kakao-quota", -31005, "quota_exhausted")
        #expect(answer("kakao-quota")?[at: "/error/data/service"] == "kakao")
        #expect(
            answer("kakao-none")?[at: "/result/found"] == false && answer("kakao-none")?[at: "/result/image"] == .null)
    }

    @Test("Kakao 401 with a wrong key; posters without a Kakao key are not_configured")
    func kakaoKeys() async throws {
        let upstream = try RecordedUpstream()
        let wrong = try await run(
            [request(1, "movie.poster", params: ["title": "광해"])], upstream: upstream,
            environment: ["KAKAO_REST_API_KEY": "wrong-key"]
        ).json()
        #expect(wrong.first?[at: "/error/code"] == -31002)
        #expect(wrong.first?[at: "/error/data/upstreamCode"] == "AccessDeniedError")
        #expect(wrong.first?[at: "/error/data/status"] == 401)
        let missing = try await run(
            [request(1, "movie.poster", params: ["title": "광해"])], upstream: upstream,
            environment: ["KAKAO_REST_API_KEY": ""]
        ).json()
        #expect(missing.first?[at: "/error/code"] == -31007)
        #expect(missing.first?[at: "/error/data/setting"] == "KAKAO_REST_API_KEY")
    }

    @Test("a KOBIS key the service refuses: upstream_rejected, the key in no message")
    func kobisKey() async throws {
        let upstream = try RecordedUpstream()
        let run = try await WorkerProcess.run(
            [request(1, "boxoffice.daily", params: ["date": "2022-01-05"])], arguments: Self.arguments,
            environment: upstream.environment.merging(["KOBIS_API_KEY": "refused-key-123"]) { $1 })
        #expect(run.json().first?[at: "/error/code"] == -31002)
        #expect(!run.lines.joined().contains("refused-key-123") && !run.stderr.contains("refused-key-123"))
    }

    @Test("an unreachable upstream: upstream_unavailable, the URL redacted")
    func unreachable() async throws {
        let run = try await WorkerProcess.run(
            [request(1, "boxoffice.daily", params: ["date": "2022-01-05"])], arguments: Self.arguments,
            environment: ["KOBIS_API_KEY": "secret-key-777", "KOBIS_BASE_URL": "http://127.0.0.1:9/kobis"])
        let response = try #require(run.json().first)
        #expect(response[at: "/error/code"] == -31001)
        #expect(response[at: "/error/message"]?.stringValue?.contains("key=REDACTED") == true)
        #expect(!run.lines.joined().contains("secret-key-777") && !run.stderr.contains("secret-key-777"))
    }
}
