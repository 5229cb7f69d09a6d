import BoxOfficeCore
import Crypto
import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// The cache, the quota, the fan-out and poster downloads, through the binary against the loopback fake upstream,
/// counting the requests it receives.
@Suite("Cache, quota, fan-out and downloads against a fake upstream", .spawnsWorkers)
struct CacheEndToEndTests {
    /// One request at a time, so "the second call" really comes after the first.
    static let arguments = ["--ordered", "--max-in-flight", "1", "--today", "2026-11-21", "--timeout", "2"]

    func run(
        _ lines: [String], upstream: RecordedUpstream, cache: String? = nil, arguments extra: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> WorkerRun {
        var environment = upstream.environment.merging(environment) { $1 }
        if let cache { environment["BOXOFFICE_CACHE_DIR"] = cache }  // else the process's own, removed after it
        let run = try await WorkerProcess.run(
            lines, arguments: Self.arguments + extra, environment: environment, timeout: 60)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(
            !run.lines.joined().contains(RecordedUpstream.kobisKey) && !run.stderr.contains(RecordedUpstream.kobisKey))
        return run
    }

    func kobisRequests(_ upstream: RecordedUpstream) -> Int {
        upstream.server.requests.filter { $0.path.hasPrefix("/kobis/") }.count
    }

    @Test("a second identical call makes no upstream request; refresh makes exactly one")
    func secondCallAndRefresh() async throws {
        let upstream = try RecordedUpstream()
        var environment = upstream.environment
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        environment["BOXOFFICE_CACHE_DIR"] = cache
        let worker = try WorkerProcess(arguments: Self.arguments, environment: environment)
        worker.send(request(1, "boxoffice.daily", params: ["date": "2022-01-05"]))
        worker.send(request(2, "boxoffice.daily", params: ["date": "2022-01-05", "limit": 3]))
        worker.send(request(3, "boxoffice.daily", params: ["date": "2022-01-05", "refresh": true]))
        #expect(await worker.waitForLines(3).count == 3)
        // worker.status answers when it is read: only after the three answers are out.
        worker.send(request(4, "worker.status"))
        _ = await worker.waitForLines(4)
        worker.closeInput()
        #expect(await worker.waitForExit() == 0)
        let out = try worker.lines.map { try JSONParser.parse(Array($0.utf8)) }
        #expect(upstream.dailyRequests("20220105") == 2)
        #expect(out[0][at: "/result/source/origin"] == "kobis")
        #expect(out[1][at: "/result/source/origin"] == "cache")
        #expect(out[1][at: "/result/entries"]?.arrayValue?.count == 3)
        #expect(out[2][at: "/result/source/origin"] == "kobis")
        #expect(out[3][at: "/result/cache/hits"] == 1 && out[3][at: "/result/cache/misses"] == 2)
        #expect(out[3][at: "/result/cache/enabled"] == true)
    }

    @Test(
        "two worker processes on one cache directory: the second makes no upstream request for what the first fetched")
    func sharedBetweenProcesses() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let lines = [
            request(1, "boxoffice.daily", params: ["date": "2023-04-23"]),
            request(2, "movie.detail", params: ["movieCode": "20124079"]),
            request(3, "movie.poster", params: ["title": "광해, 왕이 된 남자"]),
            request(4, "boxoffice.weekly", params: ["date": "2012-01-01"]),
        ]
        let first = try await run(lines, upstream: upstream, cache: cache).json()
        let made = upstream.server.requests.count
        #expect(made == 4)
        #expect(first.allSatisfy { $0["result"] != nil })
        let second = try await run(lines, upstream: upstream, cache: cache).json()
        #expect(upstream.server.requests.count == made)
        for answer in second {
            #expect(answer[at: "/result/source/origin"] == "cache" || answer[at: "/result/found"] == true, "\(answer)")
        }
        // Two processes at once on a third directory: no errors, nothing lost.
        let shared = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: shared) }
        var environment = upstream.environment
        environment["BOXOFFICE_CACHE_DIR"] = shared
        let workers = try (0..<2).map { _ in try WorkerProcess(arguments: Self.arguments, environment: environment) }
        for worker in workers {
            for (index, day) in ["2022-01-05", "2023-04-23", "2023-04-26"].enumerated() {
                worker.send(request(.int(index), "boxoffice.daily", params: ["date": .string(day)]))
            }
            worker.closeInput()
        }
        for worker in workers {
            #expect(await worker.waitForExit(timeout: 30) == 0)
            #expect(
                worker.lines.count == 3 && worker.lines.allSatisfy { $0.contains("\"result\"") },
                "\(worker.lines) \(worker.stderr)")
        }
        let store = try SQLiteStore(directory: URL(fileURLWithPath: shared))
        for day in ["20220105", "20230423", "20230426"] {
            #expect(
                try await store.entry(
                    UpstreamCall(
                        service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": day, "itemPerPage": "10"]
                    ).key) != nil)
        }
    }

    @Test(
        "at the daily limit: quota_exhausted with the limit and reset time, cached dates still answered, status shows it"
    )
    func quota() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let out = try await run(
            [
                request(1, "boxoffice.daily", params: ["date": "2022-01-05"]),
                request(2, "boxoffice.daily", params: ["date": "2023-04-23"]),
                request(3, "boxoffice.daily", params: ["date": "2023-04-26"]),
                request(4, "boxoffice.daily", params: ["date": "2022-01-05"]),
                request(5, "diagnostics.sleep", params: ["ms": 300]),
                request(6, "worker.status"),
            ], upstream: upstream, cache: cache, arguments: ["--kobis-daily-limit", "2", "--diagnostics"]
        ).json()
        #expect(out[0]["result"] != nil && out[1]["result"] != nil)
        #expect(out[2][at: "/error/code"] == -31005)
        #expect(out[2][at: "/error/data/reason"] == "quota_exhausted")
        #expect(out[2][at: "/error/data/limit"] == 2)
        #expect(out[2][at: "/error/data/resetsAt"] == "2026-11-21T15:00:00Z")
        #expect(out[3][at: "/result/source/origin"] == "cache")
        #expect(
            out[5][at: "/result/quota"] == [
                "limit": 2, "used": 2, "remaining": 0, "day": "2026-11-21", "resetsAt": "2026-11-21T15:00:00Z",
                "counting": "shared",
            ])
        #expect(kobisRequests(upstream) == 2)
        // The budget is shared: another process on the same cache has none left either.
        let again = try await run(
            [request(1, "boxoffice.daily", params: ["date": "2023-04-26"])], upstream: upstream, cache: cache,
            arguments: ["--kobis-daily-limit", "2"]
        ).json()
        #expect(again.first?[at: "/error/data/reason"] == "quota_exhausted")
        #expect(kobisRequests(upstream) == 2)
    }

    @Test("a cache directory that is a file, or below a file: requests still served, one warning")
    func unusableCache() async throws {
        let upstream = try RecordedUpstream()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "boxoffice-not-a-dir-\(UUID().uuidString)"
        ).path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        for cache in [file, file + "/below"] {
            let run = try await run(
                [
                    request(1, "boxoffice.daily", params: ["date": "2022-01-05"]),
                    request(2, "boxoffice.daily", params: ["date": "2022-01-05"]),
                    request(3, "worker.status"),
                ], upstream: upstream, cache: cache)
            let out = run.json()
            #expect(out[0]["result"] != nil && out[1]["result"] != nil)
            #expect(out[2][at: "/result/cache/enabled"] == false)
            let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
            #expect(warnings.count == 1 && warnings[0].contains("cache"), "\(run.stderr)")
        }
    }

    @Test("fan-out: every entry complete with detail and poster; a failing detail leaves its entry with errors")
    func fanOut() async throws {
        let upstream = try RecordedUpstream()
        let out = try await run(
            [
                request(1, "boxoffice.daily", params: ["date": "2022-01-05", "include": ["detail", "poster"]]),
                // 2023-04-23 shows 인셉션 (20100312), whose detail the fake upstream does not have: not_found.
                request(2, "boxoffice.daily", params: ["date": "2023-04-23", "include": ["detail", "poster"]]),
            ], upstream: upstream
        ).json()
        let complete = try #require(out[0][at: "/result/entries"]?.arrayValue)
        #expect(complete.count == 10)
        #expect(
            complete.allSatisfy {
                $0[at: "/detail/movieCode"] == $0["movieCode"] && $0[at: "/poster/found"] == true && $0["errors"] == nil
            })
        let mixed = try #require(out[1][at: "/result/entries"]?.arrayValue)
        let failed = mixed.filter { $0["errors"] != nil }
        #expect(failed.count == 1)
        #expect(failed.first?["movieCode"] == "20100312")
        #expect(
            failed.first?[at: "/errors/0/data/reason"] == "not_found" && failed.first?[at: "/errors/0/part"] == "detail"
        )
        #expect(failed.first?["detail"] == .null && failed.first?[at: "/poster/found"] == true)
        #expect(mixed.filter { $0["errors"] == nil }.allSatisfy { $0[at: "/detail/movieCode"] == $0["movieCode"] })
    }

    @Test(
        "fan-out progress: one notification per part, strictly increasing, all before the response; none without a token"
    )
    func fanOutProgress() async throws {
        let upstream = try RecordedUpstream()
        let run = try await run(
            [
                request(
                    1, "boxoffice.daily",
                    params: ["date": "2022-01-05", "include": ["detail", "poster"], "_meta": ["progressToken": "p1"]]),
                request(2, "boxoffice.daily", params: ["date": "2023-04-26", "include": ["detail"]]),
            ], upstream: upstream)
        let out = run.json()
        let responseIndex = try #require(out.firstIndex { $0["id"] == 1 })
        let progress = out.enumerated().filter { $0.element["method"] == "notifications/progress" }
        #expect(progress.count == 20)
        #expect(
            progress.allSatisfy {
                $0.offset < responseIndex && $0.element[at: "/params/progressToken"] == "p1"
                    && $0.element[at: "/params/total"] == 20
            })
        let values = progress.compactMap { $0.element[at: "/params/progress"]?.numberValue }
        #expect(values == (1...20).map(Double.init))
        #expect(out.filter { $0["method"] != nil }.count == 20)
    }

    @Test(
        "poster download: the file in the cache directory, its sha256, type and size; a second request reads the file")
    func download() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let lines = [
            request(1, "movie.poster", params: ["title": "다운로드 poster.jpg", "download": true]),
            request(2, "movie.poster", params: ["title": "다운로드 moved.png", "download": true]),
        ]
        let out = try await run(lines, upstream: upstream, cache: cache).json()
        let file = try #require(out[0][at: "/result/file"])
        let path = try #require(file["path"]?.stringValue)
        let expected = SHA256.hash(data: RecordedUpstream.posterBytes).hexadecimal
        #expect(path == cache + "/posters/\(expected).jpg")
        #expect(
            file["sha256"] == .string(expected) && file["mimeType"] == "image/jpeg"
                && file["bytes"] == .int(RecordedUpstream.posterBytes.count))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == RecordedUpstream.posterBytes)
        // Checked independently of the worker's own digest.
        let digest = Process()
        digest.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        digest.arguments = [path]
        let pipe = Pipe()
        digest.standardOutput = pipe
        try digest.run()
        digest.waitUntilExit()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).hasPrefix(expected))
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        // The redirect is followed to the same image: the same file.
        #expect(out[1][at: "/result/file/path"] == .string(path))
        let imageRequests = upstream.server.requests.filter { $0.path.hasPrefix("/images/") }.count
        #expect(imageRequests == 3)

        // Again, in a new process: the search comes from the cache and the image from the file.
        let again = try await run(lines, upstream: upstream, cache: cache).json()
        #expect(again[0][at: "/result/file/path"] == .string(path))
        #expect(upstream.server.requests.filter { $0.path.hasPrefix("/images/") }.count == imageRequests)
    }

    @Test("poster download refuses what is not an image, and images over 10 MB")
    func downloadLimits() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let out = try await run(
            [
                request(1, "movie.poster", params: ["title": "다운로드 page.jpg", "download": true]),
                request(2, "movie.poster", params: ["title": "다운로드 huge.jpg", "download": true]),
                request(3, "movie.poster", params: ["title": "다운로드 poster.jpg", "download": true]),
            ], upstream: upstream, cache: cache, arguments: ["--timeout", "10"]
        ).json()
        #expect(out[0][at: "/error/code"] == -31003)
        #expect(out[0][at: "/error/message"]?.stringValue?.contains("not a PNG, JPEG, GIF or WebP image") == true)
        #expect(out[1][at: "/error/code"] == -31003)
        #expect(out[1][at: "/error/message"]?.stringValue?.contains("10 MB") == true)
        #expect(out[2][at: "/result/file/bytes"] == .int(RecordedUpstream.posterBytes.count))
        let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/posters")
        #expect(files.count == 1, "\(files)")
    }

    @Test("download without a cache directory, or offline, says why")
    func downloadUnavailable() async throws {
        let upstream = try RecordedUpstream()
        let live = try await WorkerProcess.run(
            [request(1, "movie.poster", params: ["title": "다운로드 poster.jpg", "download": true])],
            arguments: Self.arguments + ["--no-cache"], environment: upstream.environment
        ).json()
        #expect(live.first?[at: "/error/data/reason"] == "not_configured")
        #expect(live.first?[at: "/error/data/setting"] == "BOXOFFICE_CACHE_DIR")
        let offline = try await WorkerProcess.run(
            [request(1, "movie.poster", params: ["movieCode": "20124079", "download": true])],
            arguments: ["--today", "2026-11-21"]
        ).json()
        #expect(offline.first?[at: "/error/data/reason"] == "offline_unavailable")
    }
}
