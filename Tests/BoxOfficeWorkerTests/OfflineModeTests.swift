import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeWorker
import JSONCore
import JSONSchema
import TestSupport
import Testing
import WorkerTestSupport

/// The embedded default: no key, answers from Fixtures/ through the same decoding path as live data.
@Suite("Offline mode")
struct OfflineModeTests {
    static let arguments = ["--ordered", "--today", "2026-11-21"]

    @Test("the start reads the build-time summary, which says what the index says (make-fixtures.py writes both)")
    func summaryAgreesWithTheIndex() throws {
        let fixtures = try FixtureFetcher(
            summary: try #require(EmbeddedFixtures.text("summary.json")),
            index: try #require(EmbeddedFixtures.text("index.json"))
        ) { EmbeddedFixtures.text($0) }
        try fixtures.parseIndex()
        let summary = fixtures.summary
        let coverage = fixtures.coverage
        #expect(summary.dailyDates == coverage.dailyDates)
        #expect(
            summary.weeklyPeriods.map { "\($0.period) \($0.end)" }
                == coverage.weeklyPeriods.map { "\($0.period) \($0.end)" })
        #expect(summary.movieCount == coverage.movieCodes.count && summary.movieCount > 0)
        #expect(summary.runsThrough == coverage.runsThrough && summary.runsThrough != nil)
        let index = try JSONParser.parse(Array(try #require(EmbeddedFixtures.text("index.json")).utf8))
        #expect(index[at: "/recordedAt"] == .string(summary.recordedAt))
    }

    @Test("every method answers from the fixtures, valid against its result schema")
    func everyMethod() async throws {
        let calls: [(String, JSONValue?)] = [
            ("boxoffice.daily", nil), ("boxoffice.daily", ["date": "2022-01-05", "include": ["detail"]]),
            ("boxoffice.weekly", nil), ("movie.detail", ["movieCode": "20199882"]),
            ("movie.poster", ["movieCode": "20124079"]), ("movie.search", ["title": "범죄와의 전쟁"]),
            ("movie.run", ["title": "파묘"]), ("movie.compare", ["movies": ["20234675", "범죄도시4"]]),
        ]
        let lines = calls.enumerated().map { request(.int($0.offset), $0.element.0, params: $0.element.1) }
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(lines)
        #expect(out.count == calls.count)
        for (index, call) in calls.enumerated() {
            let result = try #require(out[index]["result"], "\(call.0): \(out[index])")
            let schema = try SchemaCatalog.compiled("\(call.0).result.schema.json")
            #expect(schema.validate(result).isEmpty, "\(call.0): \(schema.validate(result))")
            #expect(result[at: "/source/origin"] == nil || result[at: "/source/origin"] == "fixture")
        }
        #expect(out[0][at: "/result/range/start"] == "2023-04-26")  // the latest recorded day
        #expect(out[1][at: "/result/entries"]?.arrayValue?.allSatisfy { $0["detail"]?.objectValue != nil } == true)
        #expect(out[2][at: "/result/kind"] == "weekend")
        #expect(out[3][at: "/result/title"] == "경관의 피")
        #expect(out[4][at: "/result/query"] == "광해, 왕이 된 남자 영화 포스터")
    }

    @Test("the recorded runs: 파묘 and 범죄도시4 past ten million on days 32 and 22, a fresh clone's answer")
    func recordedRuns() async throws {
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json([
            request(1, "movie.run", params: ["movieCode": "20234675"]),
            request(2, "movie.compare", params: ["movies": ["파묘", "범죄도시4"]]),
            request(3, "movie.run", params: ["title": "없는 영화 제목"]),
        ])
        let run = try #require(out[0]["result"], "\(out[0])")
        #expect(run["through"] == "2024-06-30" && run[at: "/coverage/offline"] == true)
        #expect(run[at: "/coverage/stopped"] == "ended" && run[at: "/coverage/to"] == "2024-06-09")
        let tenMillion = run["milestones"]?.arrayValue?.first { $0["audience"] == 10_000_000 }
        #expect(tenMillion == ["audience": 10_000_000, "date": "2024-03-24", "day": 32])
        #expect(
            run["days"]?.arrayValue?.first { $0["date"] == "2024-05-30" } == [
                "date": "2024-05-30", "day": 99, "missing": "not_listed",
            ])
        let steps = out[1][at: "/result/milestones"]?.arrayValue?.first { $0["audience"] == 10_000_000 }
        #expect(steps?["days"] == [32, 22], "\(out[1])")
        #expect(out[2][at: "/error/data/reason"] == "offline_unavailable", "a title search not recorded: \(out[2])")
    }

    @Test("what the fixtures do not cover is offline_unavailable, naming what they do cover")
    func unavailable() async throws {
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(
            [
                request(1, "boxoffice.daily", params: ["date": "2024-01-01"]),
                request(2, "boxoffice.daily", params: ["date": "2022-01-05", "nation": "korean"]),
                request(3, "movie.detail", params: ["movieCode": "99999999"]),
                request(4, "boxoffice.weekly", params: ["period": "weekdays"]),
            ])
        #expect(
            out.allSatisfy { $0[at: "/error/code"] == -31006 && $0[at: "/error/data/reason"] == "offline_unavailable" })
        #expect(out[0][at: "/error/data/available"] == ["2022-01-05", "2023-04-23", "2023-04-26"])
        #expect(out[1][at: "/error/message"]?.stringValue?.contains("whole country") == true)
        #expect(out[2][at: "/error/data/available"]?.arrayValue?.contains("20199882") == true)
    }

    @Test("every recorded box office answers with a detail and a poster search for each of its movies")
    func wholeCoverage() async throws {
        let boxOffices: [(String, JSONValue)] = [
            ("boxoffice.daily", ["date": "2022-01-05"]), ("boxoffice.daily", ["date": "2023-04-23"]),
            ("boxoffice.daily", ["date": "2023-04-26"]),
            ("boxoffice.weekly", ["date": "2012-01-01", "period": "weekend"]),
            ("boxoffice.weekly", ["date": "2023-04-19", "period": "week"]),
        ]
        let lines = boxOffices.enumerated().map { index, call in
            var params = call.1.objectValue ?? [:]
            params["include"] = ["detail", "poster"]
            return request(.int(index), call.0, params: .object(params))
        }
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(lines)
        #expect(out.count == boxOffices.count)
        for answer in out {
            let entries = try #require(answer[at: "/result/entries"]?.arrayValue, "\(answer)")
            #expect(entries.count == 10)
            for entry in entries {
                #expect(entry["errors"] == nil, "\(entry)")
                #expect(entry[at: "/detail/movieCode"] == entry["movieCode"])
                #expect(entry[at: "/poster/found"]?.boolValue != nil)
            }
        }
        #expect(out[4][at: "/result/kind"] == "week")
        #expect(out[4][at: "/result/range"] == ["start": "2023-04-17", "end": "2023-04-23"])
    }

    @Test("a repeated box office is answered from the kept text: the same answer, for each limit its own")
    func keptAnswers() async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        var out = await worker.jsonRPC.json([request(1, "boxoffice.daily", params: ["date": "2023-04-23"])])
        // Now in memory: these are answered at once, from kept text.
        out += await worker.jsonRPC.json([
            request(2, "boxoffice.daily", params: ["date": "2023-04-23"]),
            request(3, "boxoffice.daily", params: ["date": "2023-04-23", "limit": 2]),
            request(4, "boxoffice.daily", params: ["date": "2023-04-23", "limit": 2]),
            request(5, "boxoffice.weekly", params: ["date": "2023-04-23", "period": "week", "limit": 1]),
        ])
        func result(_ id: Int64) -> JSONValue? { out.first { $0["id"] == .integer(id) }?["result"] }
        #expect(result(1) != nil && result(1) == result(2))
        #expect(result(3)?["entries"]?.arrayValue?.count == 2 && result(3) == result(4))
        #expect(result(3)?["entries"]?.arrayValue == Array(result(1)?["entries"]?.arrayValue?.prefix(2) ?? []))
        #expect(result(5)?["kind"] == "week" && result(5)?["entries"]?.arrayValue?.count == 1)
    }

    @Test("date rules hold offline too: the range is checked against today")
    func dateRange() async throws {
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(
            [request(1, "boxoffice.daily", params: ["date": "2026-11-21"])])
        #expect(out.first?[at: "/error/code"] == -32602)
        #expect(out.first?[at: "/error/data/errors/0/instanceLocation"] == "/date")
        #expect(out.first?[at: "/error/message"]?.stringValue?.contains("2026-11-20") == true)
    }
}
