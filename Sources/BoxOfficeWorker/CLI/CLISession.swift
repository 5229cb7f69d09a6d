package import BoxOfficeCore
package import BoxOfficeMethods
package import BoxOfficeViews
import FoundationEssentials
import Glibc
import JSONCore
import JSONRPC
package import Logging
import SystemPackage

/// What one command of the human CLI runs with: the same runtime and the same method instances as the worker,
/// built from the same configuration; the terminal's width and colours; and where its output goes.
///
/// The commands build each method's typed input from their flags and call the method in process
/// (``TypedMethod/call(_:_:)``: no JSON-RPC framing), so the rules and messages are the method's own; they render
/// the method's output (the models) as screens, rows or the method's own result.
package final class CLISession: Sendable {
    /// Where a command writes: stdout and stderr, or (in tests) memory.
    package struct Output: Sendable {
        package var standard: @Sendable (String) -> Void
        package var error: @Sendable (String) -> Void
        /// Bytes to stdout: a PNG card.
        package var binary: @Sendable ([UInt8]) -> Void

        package init(
            standard: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
            binary: (@Sendable ([UInt8]) -> Void)? = nil
        ) {
            self.standard = standard
            self.error = error
            self.binary = binary ?? { standard(String(decoding: $0, as: UTF8.self)) }
        }

        /// The process's stdout and stderr, through swift-system (`FileHandle.write` traps when the reader has
        /// gone: `daily --format png | head -c 8` once ended in a fatal error). A stdout whose reader has gone ends
        /// the process as SIGPIPE would (141, what `yes | head` gives), any other failure with EX_IOERR (74).
        package static let process = Output(
            standard: { write(Array($0.utf8), to: .standardOutput) },
            error: { write(Array($0.utf8), to: .standardError) },
            binary: { write($0, to: .standardOutput) })

        private static func write(_ bytes: [UInt8], to descriptor: FileDescriptor) {
            do {
                _ = try descriptor.writeAll(bytes)
            } catch {
                guard descriptor == .standardOutput else { return }
                exit((error as? Errno) == .brokenPipe ? ExitStatus.brokenPipe : 74)
            }
        }
    }

    package let configuration: WorkerConfiguration
    let runtime: WorkerRuntime
    let methods: WorkerMethods
    package let style: TerminalStyle
    package let width: Int
    /// Today in Seoul, as the worker reckons it (`--today` included).
    package let today: CalendarDate
    let output: Output

    /// Builds the runtime and the methods. - Throws: when they cannot be built (the worker's own start-up errors).
    package init(
        _ configuration: WorkerConfiguration, color: TerminalStyle.Choice,
        logger: Logger = Logger(label: "boxoffice-worker"), output: Output = .process
    ) throws {
        self.configuration = configuration
        runtime = try WorkerRuntime(configuration, logger: logger)
        methods = try WorkerMethods(configuration, runtime: runtime, startedAt: WorkerClock())
        let environment = ProcessInfo.processInfo.environment
        style = TerminalStyle.resolve(
            color, environment: environment, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1)
        width = Self.terminalWidth(environment)
        today = runtime.service.calendar().today
        self.output = output
    }

    /// The columns of the terminal on stdout, else `$COLUMNS`, else 100.
    static func terminalWidth(_ environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 100
    }

    var service: BoxOfficeService { runtime.service }

    /// Runs the session's background work (a PostgreSQL store's pool) until ``close()``: in a task group beside the
    /// command, from before ``start()`` until after ``close()``; see ``WorkerRuntime/run()``.
    package func run() async {
        await runtime.run()
    }

    /// Connects a network store (a newer schema throws); see ``WorkerRuntime/start()``.
    package func start() async throws {
        try await runtime.start()
    }

    /// Flushes the cache writes, gives back the quota lease and closes the store (which ends ``run()``): call
    /// before exiting.
    package func close() async {
        await runtime.shutdown()
    }

    /// Calls `method` in process with `input`.
    func call<Method: TypedMethod>(_ method: Method, _ input: Method.Input) async throws -> Method.Output {
        try await method.call(input, RequestContext.inProcess(method: method.name, registry: methods.registry))
    }

    /// Writes `text` to stdout as it is: JSON, NDJSON, CSV (whose cells ``CSVText`` made safe), a post's payload.
    func write(_ text: String) {
        output.standard(text)
    }

    /// Writes a screen to stdout through ``TerminalText/screen(_:)``: nothing in it but its line breaks and its
    /// colours can act on the terminal.
    func writeScreen(_ screen: String) {
        output.standard(TerminalText.screen(screen))
    }

    /// Says `message` on stderr after `boxoffice-worker: `, each of its lines with every acting character replaced
    /// (``TerminalText``): a message may quote an upstream's words.
    func say(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.clean($0) }
        output.error("boxoffice-worker: " + lines.joined(separator: "\n") + "\n")
    }

    /// Says `message` on stderr; the exit code of a domain failure.
    func fail(_ message: String) -> Int32 {
        say(message)
        return 1
    }

    /// Says what went wrong on stderr, as one line; the exit code (``ExitStatus``): 64 for input the method or the
    /// command refused (its `-32602` message, or the command's own), 75 for a failure of the call that time may
    /// mend (the upstream unavailable, the quota spent), 1 for any other, 70 for a defect.
    func fail(_ error: any Error) -> Int32 {
        switch error {
        case let invalid as CLIRefusal:
            say(invalid.description)
            return 64
        case let error as RPCError where error.code == .invalidParams:
            say(TerminalText.clean(error.message))
            return 64
        case let error as RPCError:
            say(Self.describe(error))
            return ExitStatus.of(reason: error.data?["reason"]?.stringValue)
        default:
            say("internal error: \(TerminalText.clean(String(describing: error)))")
            return 70
        }
    }

    /// A call's failure as a line: its message and its reason.
    /// An upstream's words in the message (a KOBIS fault) are cleaned whole: a newline in them is `␊`, not a line.
    static func describe(_ error: RPCError) -> String {
        let message = TerminalText.clean(error.message)
        guard let reason = error.data?["reason"]?.stringValue else { return message }
        return "\(message) (\(TerminalText.clean(reason)))"
    }
}
