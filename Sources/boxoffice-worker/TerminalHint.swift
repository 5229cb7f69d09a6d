import BoxOfficeCore
import BoxOfficeWorker
import FoundationEssentials
import Glibc

/// The one line a person sees who starts the worker by hand: a terminal on stdin means nobody is spawning it as a
/// subprocess (hosts give it a pipe), so it says what it is waiting for and where the human commands are, on stderr,
/// and then serves as always.
enum TerminalHint {
    static func showIfInteractive(_ face: WorkerSession.ServedProtocol) {
        guard isatty(STDIN_FILENO) == 1 else { return }
        let line: String
        switch face {
        case .jsonRPC:
            line = """
                boxoffice-worker: waiting for JSON-RPC 2.0 requests on stdin, one per line (try \
                {"jsonrpc":"2.0","id":1,"method":"ping"}; Ctrl-D ends). For people: boxoffice-worker daily, \
                boxoffice-worker movie CODE, boxoffice-worker --help

                """
        case .pipe(let method):
            line = """
                boxoffice-worker pipe: one job per line on stdin (\(method.map { "params or a bare string for \($0)" }
                    ?? #"{"method", "params"}"#)), one outcome line each on stdout (Ctrl-D ends)

                """
        case .mcp:
            line = """
                boxoffice-worker mcp: a Model Context Protocol server for LLM hosts, waiting for JSON-RPC on stdin \
                (Ctrl-D ends). For people: boxoffice-worker daily, boxoffice-worker --help

                """
        }
        StandardError.write(line)
    }
}
