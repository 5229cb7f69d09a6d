import JSONCore
import TestSupport
import Testing
import WorkerTestSupport

@Suite("worker.status and rpc.discover")
struct MethodTests {
    @Test("worker.status reports identity, mode, counters and limits")
    func status() async throws {
        let out = try await OfflineWorker(["--ordered", "--max-in-flight", "7"]).jsonRPC.json([
            request(1, "ping"), "x", request(2, "worker.status"),
        ])
        let status = try #require(out.last)
        #expect(status[at: "/result/name"] == "boxoffice-worker")
        #expect(status[at: "/result/mode"] == "offline")
        #expect(status[at: "/result/requests/succeeded"] == 1)
        #expect(status[at: "/result/requests/parseErrors"] == 1)
        #expect(status[at: "/result/requests/lines"] == 3)
        #expect(status[at: "/result/limits/maxInFlight"] == 7)
        #expect(status[at: "/result/limits/ordered"] == true)
        #expect((status[at: "/result/uptimeSeconds"]?.numberValue ?? -1) >= 0)
    }

    @Test("rpc.discover lists every registered method with its schemas")
    func discover() async throws {
        let out = try await OfflineWorker(["--diagnostics"]).jsonRPC.json([request(1, "rpc.discover")])
        let document = try #require(out.first)
        #expect(document[at: "/result/openrpc"]?.stringValue?.hasPrefix("1.") == true)
        let methods = try #require(document[at: "/result/methods"]?.arrayValue)
        let names = methods.compactMap { $0["name"]?.stringValue }
        #expect(
            names == [
                "ping", "worker.status", "rpc.discover", "boxoffice.daily", "boxoffice.weekly", "movie.detail",
                "movie.poster", "movie.search", "people.search", "people.detail", "company.search", "company.detail",
                "codes.list", "movie.run", "movie.compare", "diagnostics.sleep", "diagnostics.fail",
            ])
        let sleep = try #require(methods.first { $0["name"] == "diagnostics.sleep" })
        #expect(sleep[at: "/params/0/name"] == "ms")
        #expect(sleep[at: "/params/0/required"] == true)
        #expect(sleep[at: "/result/schema/required"] == ["sleptMs", "steps"])
    }
}
