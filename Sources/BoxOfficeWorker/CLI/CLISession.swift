package import BoxOfficeCore
import Foundation
package import Logging

/// What one command of the human CLI runs with: the same runtime as the worker (store, quota, fetcher chain,
/// service) built from the same configuration, the terminal's width and colours, and stdout and stderr.
///
/// The commands call the core directly: no JSON-RPC round trip inside the process.
package final class CLISession: Sendable {
    package let configuration: WorkerConfiguration
    let runtime: WorkerRuntime
    package let style: TerminalStyle
    package let width: Int
    /// Today in Seoul, as the worker reckons it (`--today` included).
    package let today: CalendarDate

    /// Builds the runtime. - Throws: when it cannot be built (the worker's own start-up errors).
    package init(_ configuration: WorkerConfiguration, color: TerminalStyle.Choice, logger: Logger) throws {
        self.configuration = configuration
        runtime = try WorkerRuntime(configuration, logger: logger)
        let environment = ProcessInfo.processInfo.environment
        style = TerminalStyle.resolve(
            color, environment: environment, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1)
        width = Self.terminalWidth(environment)
        today = runtime.service.calendar().today
    }

    /// The columns of the terminal on stdout, else `$COLUMNS`, else 100.
    static func terminalWidth(_ environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 100
    }

    var service: BoxOfficeService { runtime.service }

    /// Connects a network store (a newer schema throws); see ``WorkerRuntime/start()``.
    package func start() async throws {
        try await runtime.start()
    }

    /// Flushes the cache writes, gives back the quota lease and closes the store: call before exiting.
    package func close() async {
        await runtime.shutdown()
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Says `message` on stderr; the exit code of a domain failure.
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("boxoffice-worker: \(message)\n".utf8))
        return 1
    }

    func fail(_ error: BoxOfficeError) -> Int32 {
        fail("\(error.message) (\(error.reason.rawValue))")
    }
}
