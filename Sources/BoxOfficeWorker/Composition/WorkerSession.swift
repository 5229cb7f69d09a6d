import BoxOfficeCore
package import BoxOfficeMethods
import FoundationEssentials
import Glibc
import JSONRPC
package import Logging
import MCP

/// One session of the worker over stdin/stdout, in one of its protocol faces, built and run from a configuration.
///
/// This is the composition root: it reserves stdout for the protocol, builds the runtime (store, quota, fetcher
/// chain, service) and the method table, puts the face on it (the worker's own JSON-RPC methods, or MCP's methods
/// over them), starts the server and the signal watcher, and after the one orderly stop (EOF, SIGTERM/SIGINT, or
/// the host closing stdout) flushes the cache writes, gives back the quota lease and closes the store.
package enum WorkerSession {
    /// Which protocol the session speaks on stdin and stdout (the face a host sees).
    package enum ServedProtocol: Sendable {
        /// JSON-RPC 2.0 as protocol.md has it (the default).
        case jsonRPC
        /// The Model Context Protocol, both eras (`boxoffice-worker mcp`).
        case mcp
        /// The filter: every line a job for `method` (or for the method it names), one outcome line each, in
        /// order (`boxoffice-worker pipe [METHOD]`, ``PipeFace``).
        case pipe(method: String?)
    }

    /// Serves until the session ends; the process exit code (0 after any normal end, 70 when the worker cannot
    /// start, 74 when stdin fails; the filter's own statuses from ``PipeFace/exitStatus(_:)``, 64 for an unknown
    /// method, 130 when stopped by a signal, 141 when stdout's reader went away).
    package static func serve(_ face: ServedProtocol, _ configuration: WorkerConfiguration, logger: Logger) async
        -> Int32
    {
        var configuration = configuration
        if case .mcp = face { configuration.cardsAsFiles = false }
        let protocolOutput = StandardStreams.reserveProtocolOutput()
        let runtime: WorkerRuntime
        do {
            runtime = try WorkerRuntime(configuration, logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            return 70
        }
        // The runtime's background work (a PostgreSQL store's pool) is a child of the session: it runs beside the
        // server until runtime.shutdown(), the last step of every path of serve(_:_:runtime:output:logger:), ends
        // it, and the group waits for it. cancelAll() only makes sure.
        return await withDiscardingTaskGroup(returning: Int32.self) { group in
            group.addTask { await runtime.run() }
            let code = await Self.serve(face, configuration, runtime: runtime, output: protocolOutput, logger: logger)
            group.cancelAll()
            return code
        }
    }

    /// The session once its runtime is built: start, serve, and shut the runtime down, whatever ended it.
    private static func serve(
        _ face: ServedProtocol, _ configuration: WorkerConfiguration, runtime: WorkerRuntime,
        output protocolOutput: Int32,
        logger: Logger
    ) async -> Int32 {
        let methods: MethodRegistry
        do {
            try await runtime.start()
            methods = try WorkerMethods(configuration, runtime: runtime, startedAt: WorkerClock()).registry
        } catch {
            logger.critical("cannot start: \(error)")
            await runtime.shutdown()
            return 70
        }
        if case .pipe(let method?) = face, methods.method(named: method) == nil {
            let names = methods.methods.map(\.name).joined(separator: ", ")
            StandardError.write("boxoffice-worker pipe: no method \(method) (one of: \(names))\n")
            await runtime.shutdown()
            return ExitStatus.usage
        }
        // The filter's stderr stays silent: a stream processor fails the message in flight on any byte there.
        if let notice = runtime.offlineNotice, !face.isPipe {
            logger.notice("\(notice)\(configuration.offlineRequested ? " (--offline given)" : "")")
        }
        var server = configuration.server
        // Live, every job on the HTTP client's event loop: its exchange, its answer and its waits there, no
        // hand-offs; and stdin read there too when it is a pipe. Offline there is no client, and no loop to start
        // for the jobs (a cold start's threads).
        if !runtime.isOffline {
            server.jobExecutor = EventLoopExecutor.shared
            server.inputPump = EventLoopInputPump(loop: EventLoopExecutor.shared.loop)
        }
        let registry: MethodRegistry
        switch face {
        case .jsonRPC:
            registry = methods
        case .pipe(let method):
            registry = methods
            server.ordered = true
            server.jobs = PipeFace.jobLines(method)
        case .mcp:
            let session = MCPSession()
            registry = MCPServerMethods.registry(BoxOfficeMCP.catalog(methods, runtime: runtime), session: session)
            server.rules = MCPServerMethods.rules(session)
        }
        let rpc = RPCServer(
            registry: registry, configuration: server, input: STDIN_FILENO, output: protocolOutput, logger: logger)
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { signal in
            logger.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            rpc.shutdown()
        }
        let ending = await rpc.run()
        signals.cancel()
        await runtime.shutdown()
        if case .readFailed = ending { return 74 }
        guard let tally = server.jobs?.tally else { return 0 }
        // Only a person reads a summary; a program has the outcomes and the status, and some fail on any stderr byte.
        if isatty(STDERR_FILENO) == 1, let summary = PipeFace.summary(tally) {
            StandardError.write(summary)
        }
        switch ending {
        case .shutdown: return ExitStatus.interrupted
        case .hostGone: return ExitStatus.brokenPipe
        case .endOfInput, .readFailed: return PipeFace.exitStatus(tally)
        }
    }
}

extension WorkerSession.ServedProtocol {
    package var isPipe: Bool {
        if case .pipe = self { return true }
        return false
    }
}
