import BoxOfficeCore
import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// People, companies and code lists on the live path: the cache, coalescing and the quota, counted at the fake
/// upstream.
@Suite("People, companies and code lists against a fake upstream", .spawnsWorkers)
struct PeopleEndToEndTests {
    static let arguments = ["--today", "2026-11-21", "--timeout", "5"]

    @Test("a second call of each (a movie's details too) makes no upstream call and says cache; each call is counted")
    func secondCallFromCache() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let calls: [(String, JSONValue)] = [
            ("people.detail", ["peopleCode": "20164556"]), ("company.detail", ["companyCode": "20122497"]),
            ("codes.list", ["kind": "region"]), ("people.search", [:]), ("company.search", [:]),
            ("movie.detail", ["movieCode": "20124079"]),
        ]
        let twice = (calls + calls).enumerated().map { request(.int($0.offset), $0.element.0, params: $0.element.1) }
        let run = try await WorkerProcess.run(
            twice + [request(99, "worker.status")], arguments: Self.arguments + ["--ordered", "--max-in-flight", "1"],
            environment: upstream.environment(cache: cache), timeout: 60)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let out = run.json()
        for index in calls.indices {
            #expect(out[index][at: "/result/source/origin"] == "kobis", "\(out[index])")
            #expect(out[index + calls.count][at: "/result/source/origin"] == "cache", "\(out[index + calls.count])")
        }
        #expect(upstream.kobisRequests(KOBISPaths.peopleInfo) == 1)
        #expect(upstream.kobisRequests(KOBISPaths.companyInfo) == 1)
        #expect(upstream.kobisRequests(KOBISPaths.codeList, "comCode", "0105000000") == 1)
        #expect(
            upstream.kobisRequests(KOBISPaths.peopleList) == 1 && upstream.kobisRequests(KOBISPaths.companyList) == 1)
        #expect(upstream.kobisRequests(KOBISPaths.movieInfo) == 1)
        #expect(out.last?[at: "/result/quota/used"] == 6, "every KOBIS call counts against the quota")
    }

    @Test(
        "include movies of 20 films, two requests at once: one wave of 20 calls, one call per film (coalesced, not cached)"
    )
    func filmographyCoalesced() async throws {
        let upstream = try RecordedUpstream()
        let films = RecordedUpstream.prolificFilms
        #expect(films.count == 20)
        let params: JSONValue = [
            "peopleCode": .string(RecordedUpstream.prolificPerson), "include": ["movies"],
            "_meta": ["progressToken": "films"],
        ]
        // Each film answers after 0.3 s, so the second request asks for every film while the first one's calls are
        // still in flight: without coalescing each film would be asked twice (nothing is cached yet).
        let run = try await WorkerProcess.run(
            [request(1, "people.detail", params: params), request(2, "people.detail", params: params)],
            arguments: Self.arguments, environment: upstream.environment, timeout: 60)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let out = run.json()
        let answers = out.filter { $0["id"] != nil }
        #expect(answers.count == 2)
        for answer in answers {
            let filmography = try #require(answer[at: "/result/filmography"]?.arrayValue, "\(answer)")
            #expect(filmography.count == 20)
            #expect(filmography.allSatisfy { $0[at: "/movie/movieCode"] == $0["movieCode"] && $0["errors"] == nil })
            #expect(answer[at: "/result/sex"] == "female" && answer[at: "/result/moviesOmitted"] == nil)
        }
        for film in films {
            #expect(upstream.kobisRequests(KOBISPaths.movieInfo, "movieCd", film) == 1, "\(film)")
        }
        // One wave: every film asked for before the first answer could have come back.
        let arrivals = upstream.server.requests.filter { $0.path == "/kobis" + KOBISPaths.movieInfo }.map(\.received)
        let spread = try #require(arrivals.max()) - (try #require(arrivals.min()))
        #expect(spread < .seconds(RecordedUpstream.filmDelay), "the 20 calls spread over \(spread)")
        let progress = out.filter { $0["method"] == "notifications/progress" }
        #expect(progress.count == 40 && progress.allSatisfy { $0[at: "/params/total"] == 20 })
    }

    @Test("include movies fetches the first 40 films and says how many it left out")
    func filmographyCapped() async throws {
        let upstream = try RecordedUpstream()
        let run = try await WorkerProcess.run(
            [
                request(
                    1, "people.detail",
                    params: ["peopleCode": .string(RecordedUpstream.tooProlificPerson), "include": ["movies"]])
            ], arguments: Self.arguments, environment: upstream.environment, timeout: 60)
        let out = run.json()
        let films = try #require(out.first?[at: "/result/filmography"]?.arrayValue, "\(out)")
        #expect(films.count == 45 && out.first?[at: "/result/moviesOmitted"] == 5)
        // None of these films has a detail at the fake upstream: each of the first 40 stands with not_found.
        #expect(films.prefix(40).allSatisfy { $0["movie"] == .null && $0[at: "/errors/0/data/reason"] == "not_found" })
        #expect(films.suffix(5).allSatisfy { $0["movie"] == nil && $0["errors"] == nil })
        #expect(upstream.kobisRequests(KOBISPaths.movieInfo) == 40)
    }

    @Test("area by code, Korean name, short name or English name: the same wideAreaCd reaches KOBIS")
    func areaNamesReachKOBIS() async throws {
        let upstream = try RecordedUpstream()
        let names = ["0105001", "서울시", "서울", "Seoul", "경상남도", "충북"]
        let run = try await WorkerProcess.run(
            names.enumerated().map { index, name in
                request(
                    .int(index), "boxoffice.daily",
                    params: ["date": "2022-01-05", "area": .string(name), "refresh": true])
            }, arguments: Self.arguments + ["--ordered", "--max-in-flight", "1"], environment: upstream.environment,
            timeout: 60)
        #expect(run.json().allSatisfy { $0["result"] != nil }, "\(run.lines)")
        let sent = upstream.server.requests.filter { $0.path.hasSuffix("searchDailyBoxOfficeList.json") }
            .map { $0.query["wideAreaCd"] ?? "" }
        #expect(sent == ["0105001", "0105001", "0105001", "0105001", "0105007", "0105004"])
    }

    @Test(
        "an unknown people or company code is not_found with the code, kept and answered again at once; no key echoed")
    func notFound() async throws {
        let upstream = try RecordedUpstream()
        let run = try await WorkerProcess.run(
            [
                request(1, "people.detail", params: ["peopleCode": "20000000"]),
                request(2, "company.detail", params: ["companyCode": "20000000"]),
                request(3, "people.detail", params: ["peopleCode": "20000000"]),
                request(4, "worker.status"),
            ], arguments: Self.arguments + ["--ordered", "--max-in-flight", "1"], environment: upstream.environment,
            timeout: 60)
        let out = run.json()
        #expect(out[0][at: "/error/code"] == -31004 && out[0][at: "/error/data/peopleCode"] == "20000000")
        #expect(out[1][at: "/error/code"] == -31004 && out[1][at: "/error/data/companyCode"] == "20000000")
        // The answer KOBIS gave is kept: asked again, it is the same error at once, counted as one cache hit.
        #expect(out[2]["error"] == out[0]["error"] && upstream.kobisRequests(KOBISPaths.peopleInfo) == 1)
        #expect(out[3][at: "/result/cache/hits"] == 1, "\(out[3])")
        #expect(
            !run.lines.joined().contains(RecordedUpstream.kobisKey) && !run.stderr.contains(RecordedUpstream.kobisKey))
    }
}
