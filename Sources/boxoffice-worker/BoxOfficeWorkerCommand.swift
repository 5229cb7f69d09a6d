import ArgumentParser
import BoxOfficeCore
import BoxOfficeWorker
import Foundation
import JSONRPC
import Logging

/// `boxoffice-worker`: flags and environment in, a JSON-RPC server on stdin/stdout out.
@main
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
            Exit codes: 0 after a normal end (EOF, SIGTERM/SIGINT, host gone), 64 for bad flags, 74 if stdin fails.
            """,
        version: WorkerIdentity.version
    )

    @Option(help: ArgumentHelp("Requests worked on at once; reading stops (backpressure) when this many are in flight.", valueName: "n"))
    var maxInFlight: Int = 64

    @Flag(help: "Write responses in request order instead of as each completes.")
    var ordered = false

    @Option(help: ArgumentHelp("Longest accepted line in bytes; a longer one is answered with -32600 and discarded while read.", valueName: "bytes"))
    var maxLineBytes: Int = 1 << 20

    @Option(help: ArgumentHelp("Most messages in one batch; a larger batch is answered with one -32600.", valueName: "n"))
    var maxBatch: Int = 100

    @Option(help: ArgumentHelp("On SIGTERM/SIGINT, seconds in-flight requests get to finish before they are answered with -32800.", valueName: "seconds"))
    var drainSeconds: Double = 5

    @Flag(help: "Serve the embedded recorded fixtures even when KOBIS_API_KEY is set.")
    var offline = false

    @Option(help: ArgumentHelp("KOBIS base URL (env KOBIS_BASE_URL); endpoint paths are appended.", valueName: "url"))
    var kobisBaseUrl: String?

    @Option(help: ArgumentHelp("Kakao base URL (env KAKAO_BASE_URL); /v2/search/image is appended.", valueName: "url"))
    var kakaoBaseUrl: String?

    @Option(help: ArgumentHelp("Seconds each upstream call may take (transient failures are retried up to 3 times).", valueName: "seconds"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("The shared cache directory (env BOXOFFICE_CACHE_DIR; default $XDG_CACHE_HOME/boxoffice-worker, else ~/.cache/boxoffice-worker).", valueName: "path"))
    var cacheDir: String?
    @Flag(help: "Keep no cache on disk (answers are still kept briefly in memory; poster downloads are off).")
    var noCache = false
    @Option(help: ArgumentHelp("KOBIS calls allowed per day in Seoul, shared by every worker using the same cache; then quota_exhausted.", valueName: "n"))
    var kobisDailyLimit: Int = 2950
    @Option(help: ArgumentHelp("Take this date (YYYY-MM-DD) as today in Seoul, for replays and tests (env BOXOFFICE_TODAY).", valueName: "date"))
    var today: String?

    @Flag(help: "Also answer diagnostics.sleep and diagnostics.fail, for testing hosts (timeouts, cancellation, progress, crashes).")
    var diagnostics = false

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (env BOXOFFICE_LOG_LEVEL; default info).", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard maxLineBytes >= 64 else { throw ValidationError("--max-line-bytes must be at least 64") }
        guard maxBatch >= 1 else { throw ValidationError("--max-batch must be at least 1") }
        guard drainSeconds >= 0, drainSeconds.isFinite else { throw ValidationError("--drain-seconds must be 0 or more") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be more than 0 seconds") }
        guard kobisDailyLimit >= 0 else { throw ValidationError("--kobis-daily-limit must be 0 or more") }
        if noCache, cacheDir != nil { throw ValidationError("--no-cache and --cache-dir contradict each other") }
        if let text = resolvedToday, CalendarDate(text) == nil {
            throw ValidationError("today \"\(text)\" is not a date (YYYY-MM-DD)")
        }
        if let level = resolvedLogLevelText, Logger.Level(rawValue: level) == nil {
            throw ValidationError("log level \"\(level)\" is not one of trace, debug, info, notice, warning, error, critical")
        }
    }

    private var resolvedToday: String? {
        today ?? ProcessInfo.processInfo.environment["BOXOFFICE_TODAY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private var resolvedLogLevelText: String? {
        logLevel ?? ProcessInfo.processInfo.environment["BOXOFFICE_LOG_LEVEL"]
    }

    mutating func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let protocolOutput = StandardStreams.reserveProtocolOutput()
        let level = resolvedLogLevelText.flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "boxoffice-worker")

        let kobisKey = environment["KOBIS_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let kakaoKey = environment["KAKAO_REST_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let worker = WorkerConfiguration(
            server: ServerConfiguration(
                maxInFlight: maxInFlight, ordered: ordered, maxLineBytes: maxLineBytes, maxBatch: maxBatch,
                drainSeconds: drainSeconds
            ),
            mode: kobisKey != nil && !offline ? .live : .offline,
            diagnostics: diagnostics,
            kobis: LiveFetcher.Endpoint(
                baseURL: kobisBaseUrl ?? environment["KOBIS_BASE_URL"] ?? WorkerConfiguration.defaultKOBISBaseURL,
                key: kobisKey, setting: "KOBIS_API_KEY"
            ),
            kakao: LiveFetcher.Endpoint(
                baseURL: kakaoBaseUrl ?? environment["KAKAO_BASE_URL"] ?? WorkerConfiguration.defaultKakaoBaseURL,
                key: kakaoKey, setting: "KAKAO_REST_API_KEY"
            ),
            timeout: .milliseconds(Int64(timeout * 1000)),
            today: resolvedToday.flatMap(CalendarDate.init),
            cacheDirectory: noCache ? nil : cacheDir ?? environment["BOXOFFICE_CACHE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                ?? WorkerConfiguration.defaultCacheDirectory(environment: environment),
            kobisDailyLimit: kobisDailyLimit
        )

        let runtime: WorkerRuntime
        let registry: MethodRegistry
        do {
            runtime = try WorkerRuntime(worker, warn: { logger.warning("\($0)") })
            registry = try MethodTable.registry(worker, runtime: runtime, startedAt: WorkerClock())
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(70)
        }
        if let notice = runtime.offlineNotice {
            logger.notice("\(notice)\(kobisKey != nil ? " (--offline given)" : "")")
        }
        let writer = OutputWriter(fd: protocolOutput) {
            logger.notice("the host closed stdout; exiting")
            Foundation.exit(0)
        }
        let server = RPCServer(
            registry: registry, configuration: worker.server, input: STDIN_FILENO, writer: writer,
            log: ServerLog.adapting(logger)
        )
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { signal in
            logger.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            server.shutdown()
        }
        let ending = await server.run()
        signals.cancel()
        await runtime.shutdown()
        if case .readFailed = ending { throw ExitCode(74) }
    }
}
