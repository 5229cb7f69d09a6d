import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// What only a process shows: exit codes, signals, pipes, stdin as a file, stderr, and stdout kept for protocol lines.
@Suite("Lifecycle: EOF, signals, host gone, regular-file stdin, flags, stderr", .spawnsWorkers)
struct LifecycleTests {
    @Test("EOF with requests in flight: every one answered, then exit 0")
    func eofDrains() async throws {
        let lines = (1...30).map { request(.int($0), "diagnostics.sleep", params: ["ms": 100]) }
        let run = try await WorkerProcess.run(lines, arguments: ["--diagnostics"])
        #expect(run.status == 0)
        #expect(Set(run.json().compactMap { $0["id"] }) == Set((1...30).map { JSONValue.int($0) }))
    }

    @Test("SIGTERM: stops reading, lets short requests finish, cancels long ones with -32800, exits 0")
    func sigterm() async throws {
        let worker = try WorkerProcess(arguments: ["--diagnostics", "--drain-seconds", "1"])
        worker.send(request("short", "diagnostics.sleep", params: ["ms": 300]))
        worker.send(request("long", "diagnostics.sleep", params: ["ms": 60000]))
        worker.send(request(0, "ping"))
        await worker.waitForLines(1)
        worker.signal(SIGTERM)
        #expect(await worker.waitForStderr(containing: "shutting down"))
        // Read after the signal: not answered, because reading stopped.
        worker.send(request("late", "ping"))
        let status = await worker.waitForExit(timeout: 15)
        #expect(status == 0)
        let answers = worker.json()
        #expect(answers.first { $0["id"] == "short" }?[at: "/result/sleptMs"] == 300)
        #expect(answers.first { $0["id"] == "long" }?[at: "/error/code"] == -32800)
        #expect(!answers.contains { $0["id"] == "late" })
    }

    @Test("SIGINT is handled like SIGTERM")
    func sigint() async throws {
        let worker = try WorkerProcess(arguments: ["--drain-seconds", "0"])
        worker.send(request(1, "ping"))
        await worker.waitForLines(1)
        worker.signal(SIGINT)
        #expect(await worker.waitForExit(timeout: 10) == 0)
    }

    @Test("the host closes stdout: a quiet exit 0 with one stderr line, no SIGPIPE death")
    func hostGone() async throws {
        let worker = try WorkerProcess()
        await worker.closeOutput()
        // Enough answers to hit the closed pipe.
        for index in 0..<2000 {
            worker.send(request(.int(index), "ping"))
        }
        let status = await worker.waitForExit(timeout: 15)
        #expect(status == 0)
        #expect(worker.stderr.contains("the host closed stdout"))
    }

    @Test("stdin may be a regular file")
    func regularFileStdin() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "stdin-\(UUID().uuidString).ndjson")
        try Data(((1...100).map { request(.int($0), "ping") }.joined(separator: "\n") + "\n").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        let worker = try WorkerProcess(stdin: handle)
        #expect(await worker.waitForExit() == 0)
        #expect(worker.lines.count == 100)
    }

    @Test("a last line without a newline is still answered")
    func lastLineWithoutNewline() async throws {
        let run = try await WorkerProcess.run(bytes: Array(request(1, "ping").utf8))
        #expect(run.json().first?["id"] == 1)
    }

    @Test("a stray print cannot reach stdout: fd 1 is stderr inside the worker")
    func stdoutProtected() async throws {
        // The startup notice is a log line: it must be on stderr, never stdout.
        let run = try await WorkerProcess.run([request(1, "ping")])
        #expect(run.lines == [#"{"jsonrpc":"2.0","id":1,"result":{}}"#])
        #expect(run.stderr.contains("offline mode"))
    }

    @Test("--help documents every flag; bad flags exit 64")
    func flags() async throws {
        let help = try await WorkerProcess.run([], arguments: ["--help"])
        for flag in [
            "--max-in-flight", "--ordered", "--max-line-bytes", "--max-batch", "--drain-seconds", "--offline",
            "--log-level", "--diagnostics",
            "--kobis-base-url", "--kakao-base-url", "--timeout", "--today",
        ] {
            #expect(help.lines.joined().contains(flag) || help.stderr.contains(flag), "\(flag) missing from --help")
        }
        #expect(try await WorkerProcess.run([], arguments: ["--max-in-flight", "0"]).status == 64)
        #expect(try await WorkerProcess.run([], arguments: ["--no-such-flag"]).status == 64)
        #expect(try await WorkerProcess.run([], arguments: ["--log-level", "loud"]).status == 64)
        #expect(try await WorkerProcess.run([], arguments: ["--today", "2026-13-01"]).status == 64)
        #expect(try await WorkerProcess.run([], arguments: ["--timeout", "0"]).status == 64)
    }

    @Test("--log-level debug writes more to stderr, never to stdout")
    func logLevel() async throws {
        let run = try await WorkerProcess.run([request(1, "ping")], arguments: ["--log-level", "debug"])
        #expect(run.lines.count == 1)
        #expect(run.stderr.contains("end of input"))
    }

    @Test("the first stderr line says offline, what is covered and how to go live")
    func notice() async throws {
        let run = try await WorkerProcess.run([request(1, "ping")], arguments: ["--ordered", "--today", "2026-11-21"])
        let first = try #require(run.stderr.split(separator: "\n").first)
        #expect(first.contains("offline mode") && first.contains("2022-01-05") && first.contains("KOBIS_API_KEY"))
    }

    @Test("a handler crash is logged on stderr with its cause, which stdout never shows")
    func crashLogged() async throws {
        let run = try await WorkerProcess.run(
            [request(1, "diagnostics.fail"), request(2, "ping")], arguments: ["--diagnostics", "--ordered"])
        #expect(run.status == 0)
        #expect(run.json().map { $0[at: "/error/code"] ?? $0["id"] } == [-32603, 2])
        #expect(!run.lines.joined().contains("deliberate"))
        #expect(run.stderr.contains("deliberate handler failure"))
    }
}
