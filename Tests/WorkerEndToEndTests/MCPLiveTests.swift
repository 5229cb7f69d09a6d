import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// `boxoffice-worker mcp` live against the fake upstream: cancellation sends nothing further, and end of input
/// answers everything in flight first.
@Suite("MCP against a fake upstream: cancellation and end of input", .spawnsWorkers)
struct MCPLiveTests {
    static let arguments = ["mcp", "--today", "2026-11-21", "--timeout", "5"]

    @Test("notifications/cancelled: nothing is ever sent for the cancelled id, and the worker keeps serving")
    func cancellation() async throws {
        let upstream = try RecordedUpstream()
        let worker = try WorkerProcess(arguments: Self.arguments, environment: upstream.environment)
        worker.send(MCPRequests.initialize(1))
        #expect(await worker.waitForLine(containing: #""id":1,"#))
        // RecordedUpstream.Fault.slow: the upstream answers after 3 s. Cancelled once the upstream has the request.
        worker.send(MCPRequests.call(2, "boxoffice_daily", ["date": "2023-01-04"]))
        #expect(await upstream.server.waitForRequest { $0.query["targetDt"] == "20230104" })
        worker.send(request(nil, "notifications/cancelled", params: ["requestId": 2, "reason": "the user gave up"]))
        worker.send(request(3, "ping"))
        #expect(await worker.waitForLine(containing: #""id":3,"#))
        worker.send(MCPRequests.call(4, "boxoffice_daily", ["date": "2022-01-05", "limit": 1]))
        #expect(await worker.waitForLine(containing: #""id":4,"#))
        // End of input answers everything still in flight before the exit: had the cancellation not taken, id 2
        // would be answered (after the slow upstream's 3 s) before the worker exits.
        worker.closeInput()
        #expect(await worker.waitForExit() == 0)
        #expect(!worker.lines.contains { $0.contains(#""id":2,"#) }, "\(worker.lines)")
        #expect(worker.lines.contains { $0.contains(#""id":4,"#) && $0.contains(#""isError":false"#) })
    }

    @Test("end of input with tool calls in flight: every call is answered, then exit 0")
    func endOfInputAnswersAll() async throws {
        let upstream = try RecordedUpstream()
        // RecordedUpstream.Fault.slowOK: a correct answer after 300 ms.
        var lines = [MCPRequests.initialize(1)]
        lines += (2...6).map {
            MCPRequests.call($0, "boxoffice_daily", ["date": "2023-01-11", "limit": .int($0 - 1)])
        }
        let run = try await WorkerProcess.run(lines, arguments: Self.arguments, environment: upstream.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let answers = run.json()
        for id in 2...6 {
            let answer = answers.first { $0["id"] == .int(id) }
            #expect(answer?[at: "/result/isError"] == false, "\(id): \(String(describing: answer))")
        }
        #expect(upstream.dailyRequests("20230111") == 1, "identical calls in flight are made once")
    }
}

extension MCPLiveTests {
    @Test("movie_poster with download: true adds the image itself as an image content block")
    func posterImage() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        var environment = upstream.environment
        environment["BOXOFFICE_CACHE_DIR"] = cache
        let run = try await WorkerProcess.run(
            [
                MCPRequests.initialize(1),
                MCPRequests.call(2, "movie_poster", ["title": "다운로드 poster.jpg", "download": true]),
            ], arguments: Self.arguments, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.json().first { $0["id"] == 2 }?["result"])
        #expect(result["isError"] == false, "\(result)")
        let image = try #require(result["content"]?.arrayValue?.first { $0["type"] == "image" })
        #expect(image["mimeType"] == "image/jpeg")
        let data = try #require(image["data"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect([UInt8](data) == RecordedUpstream.posterBytes)
        #expect(result[at: "/structuredContent/file/mimeType"] == "image/jpeg")
    }
}
