import Foundation
import JSONRPC
package import Logging

/// The worker's default face: JSON-RPC 2.0 on stdin/stdout, built and run from a configuration.
///
/// This is the composition root of a session: it reserves stdout for the protocol, builds the runtime (store,
/// quota, fetcher chain, service) and the method table, starts the server and the signal watcher, and after the one
/// orderly stop (EOF, SIGTERM/SIGINT, or the host closing stdout) flushes the cache writes, gives back the quota
/// lease and closes the store before returning the exit code.
package enum ProtocolWorker {
    /// Serves until the session ends; the process exit code (0 after any normal end, 70 when the worker cannot
    /// start, 74 when stdin fails).
    package static func serve(_ configuration: WorkerConfiguration, logger: Logger) async -> Int32 {
        let protocolOutput = StandardStreams.reserveProtocolOutput()
        let runtime: WorkerRuntime
        let registry: MethodRegistry
        do {
            runtime = try WorkerRuntime(configuration, logger: logger)
            registry = try MethodTable.registry(configuration, runtime: runtime, startedAt: WorkerClock())
        } catch {
            logger.critical("cannot start: \(error)")
            return 70
        }
        if let notice = runtime.offlineNotice {
            logger.notice("\(notice)\(configuration.offlineRequested ? " (--offline given)" : "")")
        }
        let server = RPCServer(
            registry: registry, configuration: configuration.server, input: STDIN_FILENO, output: protocolOutput,
            logger: logger
        )
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { signal in
            logger.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            server.shutdown()
        }
        let ending = await server.run()
        signals.cancel()
        await runtime.shutdown()
        if case .readFailed = ending { return 74 }
        return 0
    }
}
