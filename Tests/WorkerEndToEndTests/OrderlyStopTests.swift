import BoxOfficeCore
import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// The one orderly stop when the host goes away, and a cache database locked by another process: nothing fetched
/// is lost, the quota lease goes back, and the protocol keeps answering while SQLite waits.
@Suite("Orderly stop and a locked store, against a fake upstream", .spawnsWorkers)
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
            let lines = await worker.waitForLines(1)
            #expect(
                lines.count == 1 && lines[0].contains("\"result\""), "attempt \(attempt): \(lines) \(worker.stderr)")
            await worker.closeOutput()
            worker.send(request(2, "ping"))
            #expect(await worker.waitForExit(timeout: 20) == 0, "attempt \(attempt): \(worker.stderr)")
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

    /// Holds a write transaction on the cache database from another process (Python's sqlite3) until the test
    /// sends it a line: the lock lasts exactly as long as the test needs it.
    private static func holdWriteLock(_ database: String) async throws -> WorkerProcess {
        let holder = try WorkerProcess(
            arguments: [
                "python3", "-c",
                """
                import sqlite3, sys
                connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("INSERT OR REPLACE INTO quota_days (service, day, allotted, lastGrant) VALUES ('lock-test', '2000-01-01', 0, 0)")
                print("locked", flush=True)
                sys.stdin.readline()
                connection.execute("COMMIT")
                """,
                database,
            ], executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard await holder.waitForLine(containing: "locked") else { throw CocoaError(.fileLocking) }
        return holder
    }

    @Test(
        "another process holds the write lock: ping and worker.status are answered while it holds it, and the body is stored after"
    )
    func lockedStore() async throws {
        let upstream = try RecordedUpstream()
        let cache = WorkerProcess.freshCacheDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        var environment = upstream.environment
        environment["BOXOFFICE_CACHE_DIR"] = cache
        let worker = try WorkerProcess(arguments: Self.arguments, environment: environment)
        worker.send(request(0, "ping"))
        #expect(await worker.waitForLines(1).count == 1)
        let holder = try await Self.holdWriteLock(cache + "/" + SQLiteStore.databaseName)
        // A live call needs the store (the quota's grant, then the body): it waits for the lock from here on.
        worker.send(request(1, "movie.detail", params: ["movieCode": "20124079"]))
        for id in 100..<120 {
            let method = id.isMultiple(of: 2) ? "ping" : "worker.status"
            worker.send(request(.int(id), method))
            #expect(await worker.waitForLine(containing: "\"id\":\(id),", timeout: 20), "no answer to \(method) \(id)")
        }
        // The first worker.status came while the detail was still in flight (waiting for the store).
        let firstStatus = try #require(worker.json().first { $0["id"] == 101 })
        #expect(
            (firstStatus[at: "/result/requests/inFlight"]?.integerValue ?? 0) >= 1,
            "the detail was not in flight: \(firstStatus)")
        // Every one of them came while the other process held the lock: it lets go only when told.
        #expect(holder.lines == ["locked"] && holder.stderr.isEmpty, "the lock holder is gone: \(holder.stderr)")
        // How long those answers took while the lock was held is a benchmark's figure, not a test's
        // (Benchmarks/run-locked-store).
        holder.send("release")
        #expect(await holder.waitForExit() == 0, "\(holder.stderr)")
        worker.closeInput()
        #expect(await worker.waitForExit(timeout: 30) == 0, "\(worker.stderr)")
        let detail = worker.lines.first { $0.contains("\"id\":1,") }
        #expect(detail?.contains("\"result\"") == true, "\(detail ?? "no answer") \(worker.stderr)")
        let store = try SQLiteStore(directory: URL(fileURLWithPath: cache))
        #expect(try await store.entry(Self.movieKey("20124079")) != nil, "the body was dropped: \(worker.stderr)")
        await store.close()
        let warnings = worker.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count <= 2, "one warning per outage at most (the quota's and the cache's): \(worker.stderr)")
    }
}
