import JSONCore
import TestSupport
import Testing

@Suite("worker.status and rpc.discover", .blocking)
struct MethodTests {
    @Test("worker.status reports identity, mode, counters and limits")
    func status() throws {
        let run = try WorkerProcess.run(
            [request(1, "ping"), "x", request(2, "worker.status")], arguments: ["--ordered", "--max-in-flight", "7"])
        let status = try #require(run.json().last)
        #expect(status[at: "/result/name"] == "boxoffice-worker")
        #expect(status[at: "/result/mode"] == "offline")
        #expect(status[at: "/result/requests/succeeded"] == 1)
        #expect(status[at: "/result/requests/parseErrors"] == 1)
        #expect(status[at: "/result/requests/lines"] == 3)
        #expect(status[at: "/result/limits/maxInFlight"] == 7)
        #expect(status[at: "/result/limits/ordered"] == true)
        #expect((status[at: "/result/uptimeSeconds"]?.numberValue ?? -1) >= 0)
    }

    @Test("worker.status says live when KOBIS_API_KEY is set, offline with --offline")
    func mode() throws {
        let live = try WorkerProcess.run(
            [request(1, "worker.status")], environment: ["KOBIS_API_KEY": "dummy-key-for-test"])
        #expect(live.json().first?[at: "/result/mode"] == "live")
        #expect(!live.stderr.contains("dummy-key-for-test"))
        let forced = try WorkerProcess.run(
            [request(1, "worker.status")], arguments: ["--offline"], environment: ["KOBIS_API_KEY": "dummy"])
        #expect(forced.json().first?[at: "/result/mode"] == "offline")
    }

    @Test("rpc.discover lists every registered method with its schemas")
    func discover() throws {
        let run = try WorkerProcess.run([request(1, "rpc.discover")], arguments: ["--diagnostics"])
        let document = try #require(run.json().first)
        #expect(document[at: "/result/openrpc"]?.stringValue?.hasPrefix("1.") == true)
        let methods = try #require(document[at: "/result/methods"]?.arrayValue)
        let names = methods.compactMap { $0["name"]?.stringValue }
        #expect(
            names == [
                "ping", "worker.status", "rpc.discover", "boxoffice.daily", "boxoffice.weekly", "movie.detail",
                "movie.poster", "movie.search", "diagnostics.sleep", "diagnostics.fail",
            ])
        let sleep = try #require(methods.first { $0["name"] == "diagnostics.sleep" })
        #expect(sleep[at: "/params/0/name"] == "ms")
        #expect(sleep[at: "/params/0/required"] == true)
        #expect(sleep[at: "/result/schema/required"] == ["sleptMs", "steps"])
    }
}
