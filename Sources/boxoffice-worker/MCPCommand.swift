import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker mcp`: the same worker as a Model Context Protocol server on stdin/stdout, for LLM hosts.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on stdin/stdout (both the handshake and the 2026-07-28 era).",
        discussion: """
            Tools: boxoffice_daily, boxoffice_weekly, movie_detail, movie_poster, movie_search, worker_status; \
            resources boxoffice://daily/{date}, boxoffice://weekly/{period}/{date}, boxoffice://movie/{movieCode}; \
            the prompt boxoffice_briefing. Without KOBIS_API_KEY it serves the embedded recordings (offline).
            """
    )

    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        try await BoxOfficeWorkerCommand.serve(.mcp, flags)
    }
}
