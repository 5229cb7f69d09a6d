import ArgumentParser
import BoxOfficeWorker
import Foundation
import Logging

/// The worker's flags, shared by every face (the JSON-RPC worker and `mcp`), as swift-argument-parser reads them for
/// help, version and error messages. The plain forms a host spawns with are read by a table instead
/// (``WorkerOptions/quickParse(_:)``); a test holds the two lists equal.
struct WorkerFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Requests worked on at once; reading stops (backpressure) when this many are in flight.", valueName: "n"))
    var maxInFlight: Int = 64

    @Flag(help: "Write responses in request order instead of as each completes.")
    var ordered = false

    @Option(
        help: ArgumentHelp(
            "Longest accepted line in bytes; a longer one is answered with -32600 and discarded while read.",
            valueName: "bytes"))
    var maxLineBytes: Int = 1 << 20

    @Option(
        help: ArgumentHelp("Most messages in one batch; a larger batch is answered with one -32600.", valueName: "n"))
    var maxBatch: Int = 100

    @Option(
        help: ArgumentHelp(
            "On SIGTERM/SIGINT, seconds in-flight requests get to finish before they are answered with -32800.",
            valueName: "seconds"))
    var drainSeconds: Double = 5

    @Flag(help: "Serve the embedded recorded fixtures even when KOBIS_API_KEY is set.")
    var offline = false

    @Option(help: ArgumentHelp("KOBIS base URL (env KOBIS_BASE_URL); endpoint paths are appended.", valueName: "url"))
    var kobisBaseUrl: String?

    @Option(help: ArgumentHelp("Kakao base URL (env KAKAO_BASE_URL); /v2/search/image is appended.", valueName: "url"))
    var kakaoBaseUrl: String?

    @Option(
        help: ArgumentHelp(
            "Seconds each upstream call may take (transient failures are retried up to 3 times).", valueName: "seconds")
    )
    var timeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Seconds one upstream call may take in all, its whole body included.", valueName: "seconds"))
    var deadline: Double = 30

    @Flag(
        help:
            "Let poster downloads reach loopback and private addresses (env BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS=1): for tests and private mirrors."
    )
    var allowPrivateDownloads = false

    @Flag(
        help:
            "Use a cache directory that other users can write to or that another user owns (refused otherwise: they could replace the cache)."
    )
    var allowSharedCacheDir = false

    @Option(
        help: ArgumentHelp(
            "The shared cache directory (env BOXOFFICE_CACHE_DIR; default $XDG_CACHE_HOME/boxoffice-worker, else ~/.cache/boxoffice-worker).",
            valueName: "path"))
    var cacheDir: String?
    @Flag(help: "Keep no cache on disk (answers are still kept briefly in memory; poster downloads are off).")
    var noCache = false
    @Option(
        help: ArgumentHelp(
            "KOBIS calls allowed per day in Seoul, shared by every worker using the same cache; then quota_exhausted.",
            valueName: "n"))
    var kobisDailyLimit: Int = 2950
    @Option(
        help: ArgumentHelp(
            "Keep the cache, the poster index and the KOBIS quota in PostgreSQL, shared by every machine (env BOXOFFICE_DATABASE_URL; postgres://user:password@host:5432/db?sslmode=…). Default: SQLite in the cache directory.",
            valueName: "url"))
    var databaseUrl: String?
    @Option(
        help: ArgumentHelp(
            "How long a worker's lease of KOBIS calls holds; a worker that dies holding one loses it after this.",
            valueName: "seconds"))
    var leaseSeconds: Double = 60
    @Option(
        help: ArgumentHelp(
            "Take this date (YYYY-MM-DD) as today in Seoul, for replays and tests (env BOXOFFICE_TODAY).",
            valueName: "date"))
    var today: String?

    @Flag(
        help:
            "Also answer diagnostics.sleep and diagnostics.fail, for testing hosts (timeouts, cancellation, progress, crashes)."
    )
    var diagnostics = false

    @Option(
        help: ArgumentHelp(
            "trace, debug, info, notice, warning, error or critical (env BOXOFFICE_LOG_LEVEL; default info).",
            valueName: "level"))
    var logLevel: String?

    var options: WorkerOptions {
        var options = WorkerOptions()
        options.maxInFlight = maxInFlight
        options.ordered = ordered
        options.maxLineBytes = maxLineBytes
        options.maxBatch = maxBatch
        options.drainSeconds = drainSeconds
        options.offline = offline
        options.kobisBaseURL = kobisBaseUrl
        options.kakaoBaseURL = kakaoBaseUrl
        options.timeout = timeout
        options.deadline = deadline
        options.allowPrivateDownloads = allowPrivateDownloads
        options.allowSharedCacheDirectory = allowSharedCacheDir
        options.cacheDirectory = cacheDir
        options.noCache = noCache
        options.kobisDailyLimit = kobisDailyLimit
        options.databaseURL = databaseUrl
        options.leaseSeconds = leaseSeconds
        options.today = today
        options.diagnostics = diagnostics
        options.logLevel = logLevel
        return options
    }

    var logLevelText: String? {
        logLevel ?? ProcessInfo.processInfo.environment["BOXOFFICE_LOG_LEVEL"]
    }

    func validate() throws {
        do {
            _ = try options.configuration(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        if let level = logLevelText, Logger.Level(rawValue: level) == nil {
            throw ValidationError("log level \"\(level)\" is not one of \(Self.levels)")
        }
    }

    static let levels = "trace, debug, info, notice, warning, error, critical"

    /// The level named by `text` (nil: the default, info); nil when `text` names none.
    static func level(_ text: String?) -> Logger.Level? {
        guard let text else { return .info }
        return Logger.Level(rawValue: text)
    }

    /// Logs go to stderr, at `level` and above.
    static func bootstrapLogging(_ level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

}
