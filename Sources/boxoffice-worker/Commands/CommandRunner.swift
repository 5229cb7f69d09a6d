import ArgumentParser
import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import BoxOfficeWorker
import FoundationEssentials
import Glibc
import Logging

/// What every one-shot command does around its own part: resolve the worker's flags and environment (the same as
/// the worker's), log warnings to stderr, open a session on the core, run, close it (cache writes flushed, quota
/// lease given back), and end with the code.
enum CommandRunner {
    /// A command that ended with `code` after saying why on stderr: ``Entry`` exits with it as it is. Thrown as
    /// swift-argument-parser's `ExitCode`, a 64 would be taken for a parse error and said again; and an `exit()`
    /// here, inside async code, would end the process under the tasks still unwinding.
    struct Ended: Error {
        let code: Int32
    }

    /// Runs `body` in a session and ends with the code it gives (64 for input it refused, with one line said);
    /// a bad flag is 64 here.
    static func run(_ flags: CommandFlags, color: TerminalStyle.Choice, _ body: (CLISession) async -> Int32)
        async throws
    {
        try await run(flags.options, logLevelText: flags.logLevelText, color: color, body)
    }

    /// ``run(_:color:_:)`` with the worker's options as read (by swift-argument-parser or by a quick parse).
    static func run(
        _ options: WorkerOptions, logLevelText: String?, color: TerminalStyle.Choice,
        _ body: (CLISession) async -> Int32
    ) async throws {
        let configuration: WorkerConfiguration
        do {
            configuration = try options.configuration(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw usage(error.description)
        }
        WorkerFlags.bootstrapLogging(WorkerFlags.level(logLevelText ?? "warning") ?? .warning)
        let session: CLISession
        do {
            session = try CLISession(configuration, color: color, logger: Logger(label: "boxoffice-worker"))
        } catch {
            StandardError.write("boxoffice-worker: cannot start: \(error)\n")
            throw ExitCode(70)
        }
        // The session's background work (a PostgreSQL store's pool) runs beside the command until close() ends
        // it; the group waits for it. cancelAll() only makes sure.
        let ran = await withDiscardingTaskGroup(returning: Int32?.self) { group in
            group.addTask { await session.run() }
            defer { group.cancelAll() }
            do {
                try await session.start()
            } catch {
                StandardError.write("boxoffice-worker: cannot start: \(error)\n")
                await session.close()
                return nil
            }
            let code = await body(session)
            await session.close()
            return code
        }
        guard let code = ran else { throw ExitCode(70) }
        if code != 0 { throw Ended(code: code) }
    }

    /// One line on stderr; the error that ends the command with 64 (usage), as for any bad input.
    static func usage(_ message: String) -> Ended {
        StandardError.write("boxoffice-worker: \(message)\n")
        return Ended(code: 64)
    }
}
