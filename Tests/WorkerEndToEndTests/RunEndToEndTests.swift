import BoxOfficeCore
import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// `movie.run` and `movie.compare` against the real daily lists of 2023-01-01..2024-06-30, served by a fake KOBIS
/// (``RunsUpstream``), with the calls counted there.
@Suite(
    "A film's run against the real 2023–2024 lists", .spawnsWorkers,
    .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
struct RunEndToEndTests {
    static let arguments = ["--today", "2026-11-21", "--timeout", "10", "--kobis-daily-limit", "100000"]
    static let seoulSpring = "20212866"  // 서울의 봄, opened 2023-11-22

    @Test(
        "every film past a million: totals as listed, milestones the first listed day at or over each step, gaps named")
    func millionFilms() async throws {
        let upstream = try RunsUpstream()
        // Films that opened after the window's first two weeks, so their previews and runs lie inside it.
        let films = upstream.rows.filter { code, rows in
            rows.contains { $0.audienceTotal >= 1_000_000 } && rows[0].openDate >= "2023-01-15"
        }.keys.sorted()
        #expect(films.count >= 30 && films.contains(Self.seoulSpring))
        let requests = films.enumerated().map { index, code in
            request(
                .int(index), "movie.run", params: ["movieCode": .string(code), "through": "2024-06-30", "days": 400])
        }
        let run = try await WorkerProcess.run(
            requests, arguments: Self.arguments + ["--ordered"], environment: upstream.environment, timeout: 300)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let out = run.json()
        #expect(out.count == films.count)
        for (code, answer) in zip(films, out) {
            let result = try #require(answer["result"], "\(code): \(answer)")
            let days = try #require(result["days"]?.arrayValue)
            let rows = Dictionary(uniqueKeysWithValues: upstream.rows[code]!.map { ($0.date, $0) })
            var listedTotals: [(date: String, total: Int64)] = []
            for day in days {
                let date = try #require(day["date"]?.stringValue).replacingOccurrences(of: "-", with: "")
                if let missing = day["missing"]?.stringValue {
                    #expect(missing == "not_listed", "\(code) \(date)")
                    #expect(day.objectValue?.count == 3, "a missing day carries no figure: \(day)")
                    #expect(rows[date] == nil, "\(code) \(date) is in the overall list but missing")
                    continue
                }
                let total = try #require(day["audienceTotal"]?.integerValue)
                if day["list"] == "all" {
                    let row = try #require(rows[date], "\(code) \(date) listed overall but not in the file")
                    #expect(total == row.audienceTotal && day["rank"]?.integerValue == row.rank, "\(code) \(date)")
                } else {
                    #expect(rows[date] == nil, "\(code) \(date): a narrower list asked on a day it is listed overall")
                }
                listedTotals.append((date, total))
            }
            let first = try #require(listedTotals.first?.date), last = try #require(listedTotals.last?.date)
            for row in upstream.rows[code]! where row.date >= first && row.date <= last {
                #expect(days.contains { $0["date"]?.stringValue?.replacingOccurrences(of: "-", with: "") == row.date })
            }
            for milestone in try #require(result["milestones"]?.arrayValue) {
                let step = try #require(milestone["audience"]?.integerValue)
                let date = try #require(milestone["date"]?.stringValue).replacingOccurrences(of: "-", with: "")
                #expect(listedTotals.first { $0.total >= step }?.date == date, "\(code) step \(step)")
            }
            if code == Self.seoulSpring {
                let tenMillion = result["milestones"]?.arrayValue?.first { $0["audience"] == 10_000_000 }
                #expect(tenMillion?["date"] == "2023-12-24", "서울의 봄's 10,000,000: \(String(describing: tenMillion))")
                #expect(result["openDate"] == "2023-11-22" && tenMillion?["day"] == 33)
            }
        }
    }

    @Test("the calls counted at the fake upstream: within the plan and equal to coverage; none the second time")
    func callsWithinThePlanThenNone() async throws {
        let upstream = try RunsUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let params: JSONValue = ["movieCode": .string(Self.seoulSpring), "through": "2024-06-30"]
        let first = try await WorkerProcess.run(
            [request(1, "movie.run", params: params), request(2, "movie.run", params: params)],
            arguments: Self.arguments + ["--ordered", "--max-in-flight", "1"],
            environment: upstream.environment(cache: cache))
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let out = first.json()
        let calls = try #require(out.first?[at: "/result/coverage/calls"]?.integerValue)
        let planned = try #require(out.first?[at: "/result/coverage/plannedCalls"]?.integerValue)
        let overall = upstream.server.requests.filter {
            $0.path.hasSuffix("searchDailyBoxOfficeList.json") && $0.query["repNationCd"] == nil
        }.count
        #expect(calls > 100 && Int64(upstream.listRequests) == calls, "every list fetched is counted")
        #expect(Int64(overall) <= planned, "the overall lists fetched are within the plan (\(overall) of \(planned))")
        #expect(out[1][at: "/result/coverage/calls"] == 0 && out[1][at: "/result/coverage/plannedCalls"] == 0)
        #expect(out[1][at: "/result/days"] == out[0][at: "/result/days"])
        let before = upstream.listRequests
        let second = try await WorkerProcess.run(
            [request(1, "movie.run", params: params)], arguments: Self.arguments,
            environment: upstream.environment(cache: cache))
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(upstream.listRequests == before, "a second worker over the same cache makes no list call")
        #expect(second.json().first?[at: "/result/days"] == out[0][at: "/result/days"])
    }

    @Test("maxCalls stops the scan there; a run the quota cannot give is refused before any list is fetched")
    func budgetAndRefusal() async throws {
        let upstream = try RunsUpstream()
        let params: JSONValue = ["movieCode": .string(Self.seoulSpring), "through": "2024-06-30", "maxCalls": 10]
        let bounded = try await WorkerProcess.run(
            [request(1, "movie.run", params: params)], arguments: Self.arguments, environment: upstream.environment)
        let answer = try #require(bounded.json().first)
        #expect(answer[at: "/result/coverage/stopped"] == "max_calls", "\(answer)")
        // Each day started reserves its worst case (the overall and the Korean list), so the calls stop at or under
        // the bound, and the days covered are the first ones.
        let calls = try #require(answer[at: "/result/coverage/calls"]?.integerValue)
        #expect(calls <= 10 && calls >= 8 && Int64(upstream.listRequests) == calls, "\(answer)")
        // A day is started with its worst case reserved (two lists), the unused given back: the budget covers the
        // first six days (from 2023-11-08, the first four in no list) whichever call finishes first.
        #expect(
            answer[at: "/result/coverage/from"] == "2023-11-08" && answer[at: "/result/coverage/to"] == "2023-11-13",
            "\(answer)")
        let refusing = try RunsUpstream()
        let refused = try await WorkerProcess.run(
            [request(1, "movie.run", params: ["movieCode": .string(Self.seoulSpring), "through": "2024-06-30"])],
            arguments: ["--today", "2026-11-21", "--kobis-daily-limit", "20"], environment: refusing.environment)
        let error = try #require(refused.json().first?["error"])
        #expect(error["code"] == -31005, "\(error)")
        #expect(error["message"]?.stringValue?.contains("KOBIS calls needed and 19 left today") == true, "\(error)")
        #expect(refusing.listRequests == 0)
    }

    @Test("compare: two runs aligned by day, each film's milestone days side by side")
    func compareAligned() async throws {
        let upstream = try RunsUpstream()
        let crime3 = try #require(upstream.rows.first { $0.value[0].title == "범죄도시3" }?.key)
        let run = try await WorkerProcess.run(
            [
                request(
                    1, "movie.compare",
                    params: ["movies": [.string(Self.seoulSpring), .string(crime3)], "through": "2024-06-30"])
            ], arguments: Self.arguments, environment: upstream.environment)
        let result = try #require(run.json().first?["result"], "stderr: \(run.stderr)")
        #expect(result[at: "/films/0/title"] == "서울의 봄" && result[at: "/films/1/title"] == "범죄도시3")
        let tenMillion = result["milestones"]?.arrayValue?.first { $0["audience"] == 10_000_000 }
        #expect(tenMillion?["days"]?.arrayValue?.first == 33, "\(String(describing: tenMillion))")
        let dayOne = try #require(result["days"]?.arrayValue?.first { $0["day"] == 1 })
        #expect(dayOne[at: "/films/0/date"] == "2023-11-22" && dayOne[at: "/films/1/date"] == "2023-05-31")
    }
}
