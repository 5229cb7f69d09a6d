package import Foundation
package import JSONCore

/// The built `boxoffice-worker`, spawned with pipes on all three standard streams, driven line by line.
///
/// Stdout and stderr are drained by threads of their own into buffers, so the worker never blocks on a full pipe
/// while a test waits. Every wait has a timeout, and `deinit` kills a worker still running, so a hung worker fails
/// its test instead of hanging the suite.
package final class WorkerProcess: @unchecked Sendable {
    // @unchecked: `output` and `errors` are only touched under `condition`; the rest is immutable after init.
    package static let binary: URL = {
        if let override = ProcessInfo.processInfo.environment["BOXOFFICE_WORKER_BINARY"], !override.isEmpty {
            return URL(filePath: override)
        }
        // swift test runs the test bundle from the build folder that also holds the worker.
        let runner = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while folder.path() != "/" {
            let candidate = folder.appending(path: "boxoffice-worker")
            if FileManager.default.isExecutableFile(atPath: candidate.path()) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return SharedData.repositoryRoot.appending(path: ".build/debug/boxoffice-worker")
    }()

    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let condition = NSCondition()
    private var output: [UInt8] = []
    private var errors: [UInt8] = []
    private var openStreams = 2

    /// Starts the worker. The environment is the test's own minus every upstream key, plus `environment`. Unless
    /// `environment` names one, each process gets a fresh cache directory of its own, so no test sees another's
    /// cached answers (or the user's).
    package init(arguments: [String] = [], environment: [String: String] = [:], stdin: FileHandle? = nil) throws {
        var base = ProcessInfo.processInfo.environment
        for key in ["KOBIS_API_KEY", "KAKAO_REST_API_KEY", "BOXOFFICE_LOG_LEVEL", "BOXOFFICE_TODAY", "XDG_CACHE_HOME"] {
            base[key] = nil
        }
        let ownCache = Self.freshCacheDirectory()
        base["BOXOFFICE_CACHE_DIR"] = ownCache
        ownCacheDirectory = environment["BOXOFFICE_CACHE_DIR"] == nil ? ownCache : nil
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = base.merging(environment) { $1 }
        process.standardInput = stdin ?? stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
        drain(stdoutPipe.fileHandleForReading, isOutput: true)
        drain(stderrPipe.fileHandleForReading, isOutput: false)
    }

    /// The cache directory this process was given when the test named none; removed when the process is done.
    private let ownCacheDirectory: String?

    deinit {
        if process.isRunning { process.terminate() }
        if let ownCacheDirectory { try? FileManager.default.removeItem(atPath: ownCacheDirectory) }
    }

    /// A new, not yet existing directory under the temporary directory (the worker creates it).
    package static func freshCacheDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("boxoffice-test-cache-\(UUID().uuidString)").path
    }

    /// Written to by ``closeOutput()``: the stdout drain thread waits on it beside stdout, so it can stop reading
    /// and close the host's end for real (a `close` from another thread would leave its blocked `read` holding the
    /// pipe open).
    private let stopOutput = Pipe()
    private var outputClosed = false

    private func drain(_ handle: FileHandle, isOutput: Bool) {
        let wake = stopOutput.fileHandleForReading.fileDescriptor
        let thread = Thread { [self] in
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                if isOutput {
                    var descriptors = [
                        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                    ]
                    if poll(&descriptors, 2, -1) < 0 { continue }
                    if descriptors[1].revents != 0 {
                        try? handle.close()
                        condition.lock()
                        openStreams -= 1
                        outputClosed = true
                        condition.broadcast()
                        condition.unlock()
                        return
                    }
                }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                condition.lock()
                if count > 0 {
                    if isOutput { output += buffer[..<count] } else { errors += buffer[..<count] }
                } else {
                    openStreams -= 1
                    if isOutput { outputClosed = true }
                }
                condition.broadcast()
                condition.unlock()
                if count <= 0 { return }
            }
        }
        thread.start()
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
    package func closeOutput() {
        try? stopOutput.fileHandleForWriting.write(contentsOf: Data([1]))
        condition.lock()
        while !outputClosed {
            condition.wait()
        }
        condition.unlock()
    }

    /// The complete stdout lines so far.
    package var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return Self.completeLines(output)
    }

    package var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errors, as: UTF8.self)
    }

    /// Waits until at least `count` complete stdout lines arrived; returns all lines so far (fewer on timeout).
    @discardableResult
    package func waitForLines(_ count: Int, timeout: Double = 20) -> [String] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while Self.completeLines(output).count < count && openStreams > 0 {
            if !condition.wait(until: deadline) { break }
        }
        return Self.completeLines(output)
    }

    /// Waits until a complete stdout line contains `text`; whether one did before the timeout.
    package func waitForLine(containing text: String, timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !Self.completeLines(output).contains(where: { $0.contains(text) }) {
            if openStreams == 0 || !condition.wait(until: deadline) {
                return Self.completeLines(output).contains { $0.contains(text) }
            }
        }
        return true
    }

    /// Waits until stderr contains `text`; whether it did before the timeout.
    package func waitForStderr(containing text: String, timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: errors, as: UTF8.self).contains(text) {
            if openStreams == 0 || !condition.wait(until: deadline) {
                return String(decoding: errors, as: UTF8.self).contains(text)
            }
        }
        return true
    }

    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    package var processIdentifier: Int32 { process.processIdentifier }

    /// Waits for the worker to exit and both output streams to end; its exit status, or `nil` on timeout
    /// (the worker is then killed).
    package func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                return nil
            }
            usleep(2000)
        }
        condition.lock()
        while openStreams > 0 {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
        return process.terminationStatus
    }

    static func completeLines(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        lines.removeLast()  // the unterminated tail (empty when the output ends in a newline)
        return lines
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
    ) throws -> WorkerRun {
        let worker = try WorkerProcess(arguments: arguments, environment: environment)
        worker.send(bytes: input.flatMap { Array($0.utf8) + [0x0A] })
        worker.closeInput()
        let status = worker.waitForExit(timeout: timeout)
        return WorkerRun(lines: worker.lines, stderr: worker.stderr, status: status)
    }

    /// Runs a worker over raw input bytes.
    package static func run(
        bytes: [UInt8], arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 60
    ) throws -> WorkerRun {
        let worker = try WorkerProcess(arguments: arguments, environment: environment)
        worker.send(bytes: bytes)
        worker.closeInput()
        let status = worker.waitForExit(timeout: timeout)
        return WorkerRun(lines: worker.lines, stderr: worker.stderr, status: status)
    }
}
