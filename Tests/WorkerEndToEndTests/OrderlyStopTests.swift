import BoxOfficeCore
import Foundation
import JSONCore
import TestSupport
import Testing

/// The one orderly stop when the host goes away, and a cache database locked by another process: nothing fetched
/// is lost, the quota lease goes back, and the protocol keeps answering while SQLite waits.
@Suite("Orderly stop and a locked store, against a fake upstream", .blocking)
struct OrderlyStopTests {
    static let today = CalendarDate("2026-11-21")!
    static let arguments = ["--today", today.description, "--timeout", "2"]

    private static func movieKey(_ code: String) -> String {
        UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": code]).key
    }

    @Test("the host closes stdout after a live answer: the body is stored and the lease given back, 20 of 20 times")
    func hostClosesStdout() async throws {
        let upstream = try RecordedUpstream()
        for attempt in 1...20 {
            let cache = WorkerProcess.freshCacheDirectory()
            defer { try? FileManager.default.removeItem(atPath: cache) }
            var environment = upstream.environment
            environment["BOXOFFICE_CACHE_DIR"] = cache
            let worker = try WorkerProcess(arguments: Self.arguments, environment: environment)
            worker.send(request(1, "movie.detail", params: ["movieCode": "20124079"]))
            let lines = worker.waitForLines(1)
            #expect(
                lines.count == 1 && lines[0].contains("\"result\""), "attempt \(attempt): \(lines) \(worker.stderr)")
            worker.closeOutput()
            worker.send(request(2, "ping"))
            #expect(worker.waitForExit(timeout: 20) == 0, "attempt \(attempt): \(worker.stderr)")
            let notices = worker.stderr.split(separator: "\n").filter { $0.contains("the host closed stdout") }
            #expect(notices.count == 1, "attempt \(attempt): \(worker.stderr)")
            let store = try SQLiteStore(directory: URL(fileURLWithPath: cache))
            #expect(
                try await store.entry(Self.movieKey("20124079")) != nil, "attempt \(attempt): the fetched body was lost"
            )
            #expect(
                try await store.quotaCount(.kobis, day: Self.today) == QuotaCount(allotted: 1, spent: 1),
                "attempt \(attempt): the lease was not given back")
            await store.close()
        }
    }

    /// Holds a write transaction on the cache database from another process (Python's sqlite3) for `seconds`.
    private static func holdWriteLock(_ database: String, seconds: Double) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT OR REPLACE INTO quota_days (service, day, allotted, lastGrant) VALUES ('lock-test', '2000-01-01', 0, 0)")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            connection.execute("COMMIT")
            """,
            database, String(seconds),
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        let line = output.fileHandleForReading.readData(ofLength: 7)
        guard String(decoding: line, as: UTF8.self).hasPrefix("locked") else {
            throw CocoaError(.fileLocking)
        }
        return holder
    }

    @Test(
        "another process holds the write lock for 5 s: ping and worker.status keep answering, the body is stored after")
    func lockedStore() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        var environment = upstream.environment
        environment["BOXOFFICE_CACHE_DIR"] = cache
        let worker = try WorkerProcess(arguments: Self.arguments, environment: environment)
        worker.send(request(0, "ping"))
        #expect(worker.waitForLines(1).count == 1)
        let holder = try Self.holdWriteLock(cache + "/" + SQLiteStore.databaseName, seconds: 5)
        let started = Date()
        worker.send(request(1, "movie.detail", params: ["movieCode": "20124079"]))
        var latencies: [Double] = []
        var id = 100
        while Date().timeIntervalSince(started) < 5.5 {
            for method in ["ping", "worker.status"] {
                id += 1
                let sent = Date()
                worker.send(request(.int(id), method))
                let answered = worker.waitForLine(containing: "\"id\":\(id),", timeout: 10)
                latencies.append(Date().timeIntervalSince(sent) * 1000)
                #expect(answered, "no answer to \(method) \(id)")
            }
            // A thread's sleep, not a task's: the other end-to-end suites keep the cooperative pool busy.
            usleep(100_000)
        }
        holder.waitUntilExit()
        #expect(latencies.count >= 10, "latencies (ms): \(latencies)")
        let sorted = latencies.sorted()
        // Blocking would show as seconds (1.95 s to 5 s before this was fixed); the median is held to the 50 ms of
        // the contract, and no single answer may take a tenth of the lock's time.
        #expect(sorted[sorted.count / 2] < 50, "latencies (ms): \(latencies)")
        #expect(sorted.last! < 500, "latencies (ms): \(latencies)")
        worker.closeInput()
        #expect(worker.waitForExit(timeout: 30) == 0, "\(worker.stderr)")
        let detail = worker.lines.first { $0.contains("\"id\":1,") }
        #expect(detail?.contains("\"result\"") == true, "\(detail ?? "no answer") \(worker.stderr)")
        let store = try SQLiteStore(directory: URL(fileURLWithPath: cache))
        #expect(try await store.entry(Self.movieKey("20124079")) != nil, "the body was dropped: \(worker.stderr)")
        await store.close()
        let warnings = worker.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count <= 2, "one warning per outage at most (the quota's and the cache's): \(worker.stderr)")
    }
}
