import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// The mode comes from the process's environment (a key makes it live, `--offline` overrides), and the key never
/// reaches stderr: a process's matter, so against the binary.
@Suite("worker.status's mode, from the environment", .spawnsWorkers)
struct ModeTests {
    @Test("worker.status says live when KOBIS_API_KEY is set, offline with --offline")
    func mode() async throws {
        let live = try await WorkerProcess.run(
            [request(1, "worker.status")], environment: ["KOBIS_API_KEY": "dummy-key-for-test"])
        #expect(live.json().first?[at: "/result/mode"] == "live")
        #expect(!live.stderr.contains("dummy-key-for-test"))
        let forced = try await WorkerProcess.run(
            [request(1, "worker.status")], arguments: ["--offline"], environment: ["KOBIS_API_KEY": "dummy"])
        #expect(forced.json().first?[at: "/result/mode"] == "offline")
    }
}
