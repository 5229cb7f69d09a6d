import ArgumentParser
import BoxOfficeMethods
import BoxOfficeWorker
import FoundationEssentials
import Glibc
import Logging

/// `boxoffice-worker`: parses flags, sets up logging on stderr, and hands over to the composition root in
/// BoxOfficeWorker (``WorkerSession``). Without a subcommand it is the JSON-RPC worker; `mcp` is the same worker as
/// a Model Context Protocol server.
struct BoxOfficeWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boxoffice-worker",
        abstract: "Korean box office data (KOBIS, Kakao posters) as newline-delimited JSON-RPC 2.0 on stdin/stdout.",
        discussion: """
            Reads one JSON-RPC 2.0 request per line on stdin and writes one JSON value per line on stdout, as each \
            request completes. Logs go to stderr. Try:
              printf '{"jsonrpc":"2.0","id":1,"method":"ping"}\\n' | boxoffice-worker
            Environment: KOBIS_API_KEY (unset: offline mode), KAKAO_REST_API_KEY (posters), KOBIS_BASE_URL, \
            KAKAO_BASE_URL, BOXOFFICE_CACHE_DIR, BOXOFFICE_TODAY, BOXOFFICE_LOG_LEVEL. Flags win over the environment.
            Exit codes: 0 after a normal end (EOF, SIGTERM/SIGINT, host gone), 64 for bad flags, 70 if the worker \
            cannot start (its cache directory or database), 74 if stdin fails. A command (daily, movie, …) exits 0 \
            done, 1 no answer (stderr says why), 2 a range written in part, 64 usage, 70 cannot start, 130 interrupted.
            """,
        version: WorkerIdentity.versionLine,
        subcommands: [
            MCPCommand.self, PipeCommand.self, DailyCommand.self, WeeklyCommand.self, MovieCommand.self,
            SearchCommand.self,
            PosterCommand.self, RunCommand.self, CompareCommand.self, PeopleCommand.self, CompanyCommand.self,
            CodesCommand.self, StatusCommand.self,
        ]
    )

    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        try await Self.serve(.jsonRPC, flags)
    }

    /// Resolves `flags`, sets up logging, serves `face` and exits with its code.
    static func serve(_ face: WorkerSession.ServedProtocol, _ flags: WorkerFlags) async throws {
        let configuration = try flags.options.configuration(environment: ProcessInfo.processInfo.environment)
        WorkerFlags.bootstrapLogging(WorkerFlags.level(flags.logLevelText, face: face) ?? .info)
        TerminalHint.showIfInteractive(face)
        let code = await WorkerSession.serve(face, configuration, logger: Logger(label: "boxoffice-worker"))
        if code != 0 { throw ExitCode(code) }
    }
}
