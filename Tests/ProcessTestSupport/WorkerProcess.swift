package import Foundation
package import JSONCore
import TestSupport

/// The built `boxoffice-worker`, spawned with pipes on all three standard streams, driven line by line.
///
/// Nothing here blocks a test's thread: stdout and stderr arrive as async sequences of chunks (``OutputPipe``),
/// the exit is reported by the process's termination handler, and every wait is a continuation resumed by the
/// event it waits for, or by its deadline, after which the test fails instead of hanging the suite. So these tests
/// run on Swift's cooperative pool like any other, and need no threads of their own.
package final class WorkerProcess: Sendable {
    package static let binary: URL = {
        // BOXOFFICE_WORKER, the name the clients and the test command use (a bare name is looked up on PATH, as
        // the Python suites and the recipes do); BOXOFFICE_WORKER_BINARY is the old one.
        let environment = ProcessInfo.processInfo.environment
        var chosen = environment["BOXOFFICE_WORKER"].flatMap { $0.isEmpty ? nil : $0 }
        if chosen == nil, let old = environment["BOXOFFICE_WORKER_BINARY"], !old.isEmpty {
            FileHandle.standardError.write(Data("BOXOFFICE_WORKER_BINARY is deprecated: set BOXOFFICE_WORKER\n".utf8))
            chosen = old
        }
        if let chosen {
            guard !chosen.contains("/") else { return URL(filePath: chosen) }
            let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
            let found = folders.map { URL(filePath: $0).appending(path: chosen) }.first {
                FileManager.default.isExecutableFile(atPath: $0.path())
            }
            // Not on PATH: the launch fails naming this path.
            return found ?? URL(filePath: chosen)
        }
        // swift test runs the test bundle from the build folder that also holds the worker.
        let runner = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while folder.path() != "/" {
            let candidate = folder.appending(path: "boxoffice-worker")
            if FileManager.default.isExecutableFile(atPath: candidate.path()) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: ".build/debug/boxoffice-worker")
    }()

    /// Foundation's `Process` is not `Sendable`; after `run()` this type only asks it for its identifier, which
    /// never changes, and signals it through `kill`, so sharing it between tasks is safe.
    private nonisolated(unsafe) let process = Process()
    private let processID: Int32
    private let stdinPipe = Pipe()
    private let monitor = Watched(Seen())
    /// The readers of stdout and stderr, kept so the streams they feed live as long as the process.
    private let readers: [Task<Void, Never>]
    /// Written to by ``closeOutput()``: stdout's reader stops and closes the host's end.
    private let stopOutput = Pipe()
    /// The cache directory this process was given when the test named none; removed once the process is gone.
    private let ownCacheDirectory: String?

    /// Starts the worker. The environment is the test's own minus every upstream key, plus `environment`. Unless
    /// `environment` names one, each process gets a fresh cache directory of its own, so no test sees another's
    /// cached answers (or the user's). `executable` starts another program instead, driven the same way (a helper
    /// process a test talks to over its pipes).
    package init(
        arguments: [String] = [], environment: [String: String] = [:], stdin: FileHandle? = nil,
        executable: URL? = nil
    ) throws {
        var base = ProcessInfo.processInfo.environment
        for key in ["KOBIS_API_KEY", "KAKAO_REST_API_KEY", "BOXOFFICE_LOG_LEVEL", "BOXOFFICE_TODAY", "XDG_CACHE_HOME"] {
            base[key] = nil
        }
        let ownCache = Self.freshCacheDirectory()
        base["BOXOFFICE_CACHE_DIR"] = ownCache
        ownCacheDirectory = environment["BOXOFFICE_CACHE_DIR"] == nil ? ownCache : nil
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.executableURL = executable ?? Self.binary
        process.arguments = arguments
        process.environment = base.merging(environment) { $1 }
        process.standardInput = stdin ?? stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let monitor = monitor
        process.terminationHandler = { monitor.exited($0.terminationStatus) }
        try process.run()
        processID = process.processIdentifier
        let stop = stopOutput.fileHandleForReading.fileDescriptor
        readers = [
            Task { await monitor.collect(OutputPipe(stdoutPipe.fileHandleForReading, stop: stop), isOutput: true) },
            Task { await monitor.collect(OutputPipe(stderrPipe.fileHandleForReading, stop: nil), isOutput: false) },
        ]
    }

    deinit {
        // A test that failed before the worker exited must not leave it running.
        if monitor.value.exitStatus == nil { kill(processID, SIGKILL) }
        if let ownCacheDirectory { try? FileManager.default.removeItem(atPath: ownCacheDirectory) }
    }

    /// A new, not yet existing directory under the temporary directory (the worker creates it); the caller removes
    /// it.
    package static func freshCacheDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("boxoffice-test-cache-\(UUID().uuidString)").path
    }

    /// Writes `line` and a newline to the worker's stdin.
    package func send(_ line: String) {
        send(bytes: Array(line.utf8) + [0x0A])
    }

    /// Writes raw bytes to stdin (for invalid UTF-8, NUL bytes, partial lines). A worker that has already exited
    /// is not an error here (the test checks its exit): the write fails with EPIPE instead of killing the test
    /// process with SIGPIPE.
    package func send(bytes: [UInt8]) {
        _ = Self.ignoreBrokenPipes
        try? stdinPipe.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    private static let ignoreBrokenPipes: Void = {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }()

    /// Closes stdin: end of input for the worker.
    package func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Closes the test's end of the worker's stdout (the host going away), and returns once it is closed: the
    /// worker's next write fails with `EPIPE`.
    package func closeOutput() async {
        try? stopOutput.fileHandleForWriting.write(contentsOf: Data([1]))
        _ = await monitor.wait(timeout: 60) { $0.outputClosed }
    }

    /// The complete stdout lines so far.
    package var lines: [String] { Self.completeLines(monitor.value.output) }

    package var stderr: String { String(decoding: monitor.value.errors, as: UTF8.self) }

    /// Waits until at least `count` complete stdout lines arrived; returns all lines so far (fewer on timeout or
    /// when stdout ended first).
    @discardableResult
    package func waitForLines(_ count: Int, timeout: Double = 20) async -> [String] {
        _ = await monitor.wait(timeout: timeout) { $0.outputEnded || Self.completeLines($0.output).count >= count }
        return lines
    }

    /// Waits until a complete stdout line contains `text`; whether one did before the timeout.
    package func waitForLine(containing text: String, timeout: Double = 20) async -> Bool {
        _ = await monitor.wait(timeout: timeout) {
            $0.outputEnded || Self.completeLines($0.output).contains { $0.contains(text) }
        }
        return lines.contains { $0.contains(text) }
    }

    /// Waits until stderr contains `text`; whether it did before the timeout.
    package func waitForStderr(containing text: String, timeout: Double = 20) async -> Bool {
        _ = await monitor.wait(timeout: timeout) {
            $0.openStreams == 0 || String(decoding: $0.errors, as: UTF8.self).contains(text)
        }
        return stderr.contains(text)
    }

    package func signal(_ number: Int32) {
        kill(processID, number)
    }

    package var processIdentifier: Int32 { processID }

    /// Waits for the worker to exit and both output streams to end; its exit status, or `nil` on timeout (the
    /// worker is then killed).
    package func waitForExit(timeout: Double = 20) async -> Int32? {
        let ended = await monitor.wait(timeout: timeout) { $0.exitStatus != nil && $0.openStreams == 0 }
        if !ended {
            kill(processID, SIGKILL)
            return nil
        }
        return monitor.value.exitStatus
    }

    static func completeLines(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        lines.removeLast()  // the unterminated tail (empty when the output ends in a newline)
        return lines
    }
}

extension WorkerProcess {
    /// What the test has seen of the worker.
    fileprivate struct Seen: Sendable {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var openStreams = 2
        var outputEnded = false
        var outputClosed = false
        var exitStatus: Int32?
    }
}

extension Watched<WorkerProcess.Seen> {
    fileprivate func exited(_ status: Int32) {
        update { $0.exitStatus = status }
    }

    /// Appends what a pipe delivers until it ends.
    fileprivate func collect(_ pipe: OutputPipe, isOutput: Bool) async {
        for await chunk in pipe.chunks {
            update { seen in
                if isOutput { seen.output += chunk } else { seen.errors += chunk }
            }
        }
        update { seen in
            seen.openStreams -= 1
            if isOutput {
                seen.outputEnded = true
                seen.outputClosed = true
            }
        }
    }
}

/// The whole of one worker run: lines in, everything out.
package struct WorkerRun: Sendable {
    package let lines: [String]
    package let stderr: String
    package let status: Int32?

    package init(lines: [String], stderr: String, status: Int32?) {
        self.lines = lines
        self.stderr = stderr
        self.status = status
    }

    /// Every stdout line parsed as JSON; a line that is not JSON fails the caller's expectation via `nil`.
    package var values: [JSONValue?] {
        lines.map { try? JSONParser.parse($0) }
    }
}

extension WorkerProcess {
    /// Runs a worker over `input` lines (each gets a newline), closes stdin and waits for it to exit.
    package static func run(
        _ input: [String], arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 60
    ) async throws -> WorkerRun {
        try await run(
            bytes: input.flatMap { Array($0.utf8) + [0x0A] }, arguments: arguments, environment: environment,
            timeout: timeout)
    }

    /// Runs a worker over raw input bytes.
    package static func run(
        bytes: [UInt8], arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 60
    ) async throws -> WorkerRun {
        let worker = try WorkerProcess(arguments: arguments, environment: environment)
        worker.send(bytes: bytes)
        worker.closeInput()
        let status = await worker.waitForExit(timeout: timeout)
        return WorkerRun(lines: worker.lines, stderr: worker.stderr, status: status)
    }
}
