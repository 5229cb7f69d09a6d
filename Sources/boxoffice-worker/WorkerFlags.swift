import ArgumentParser
import BoxOfficeWorker
import Foundation
import Logging

/// The worker's flags as swift-argument-parser reads them for help, version and error messages, in three groups:
/// how the long-lived faces serve (``ServingFlags``), where data comes from and is kept (``DataFlags``), and how
/// upstream calls, downloads and shared stores behave (``UpstreamFlags``). The JSON-RPC and MCP faces list all three;
/// a one-shot command takes ``CommandFlags``. The plain forms a host spawns with are read by a table instead
/// (``WorkerOptions/quickParse(_:)``); a test holds the two lists equal.
struct WorkerFlags: ParsableArguments {
    @OptionGroup var serving: ServingFlags
    @OptionGroup var data: DataFlags
    @OptionGroup var upstream: UpstreamFlags

    var options: WorkerOptions {
        var options = WorkerOptions()
        serving.apply(to: &options)
        data.apply(to: &options)
        upstream.apply(to: &options)
        return options
    }

    var logLevelText: String? { data.logLevelText }

    func validate() throws {
        try Self.check(options, logLevel: logLevelText)
    }

    /// The rules the configuration holds flags to (a bound like `--max-in-flight 0`, a bad URL, a bad level), as
    /// usage errors.
    static func check(_ options: WorkerOptions, logLevel: String?) throws {
        do {
            _ = try options.configuration(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("log level \"\(logLevel)\" is not one of \(levels)")
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

/// How the long-lived faces read, work and answer: concurrency, order, limits, draining, diagnostics. A one-shot
/// command (`daily`, `movie`, …) has none of these, so its help does not list them.
struct ServingFlags: ParsableArguments {
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

    @Flag(
        help:
            "Also answer diagnostics.sleep and diagnostics.fail, for testing hosts (timeouts, cancellation, progress, crashes)."
    )
    var diagnostics = false

    func apply(to options: inout WorkerOptions) {
        options.maxInFlight = maxInFlight
        options.ordered = ordered
        options.maxLineBytes = maxLineBytes
        options.maxBatch = maxBatch
        options.drainSeconds = drainSeconds
        options.diagnostics = diagnostics
    }
}

/// Where answers come from and where they are kept: offline or live, the cache, the KOBIS quota, today's date,
/// logging. Every face and command lists these.
struct DataFlags: ParsableArguments {
    @Flag(help: "Serve the embedded recorded fixtures even when KOBIS_API_KEY is set.")
    var offline = false
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
            "Take this date (YYYY-MM-DD) as today in Seoul, for replays and tests (env BOXOFFICE_TODAY).",
            valueName: "date"))
    var today: String?
    @Option(
        help: ArgumentHelp(
            "trace, debug, info, notice, warning, error or critical (env BOXOFFICE_LOG_LEVEL; default info).",
            valueName: "level"))
    var logLevel: String?

    var logLevelText: String? {
        logLevel ?? ProcessInfo.processInfo.environment["BOXOFFICE_LOG_LEVEL"]
    }

    func apply(to options: inout WorkerOptions) {
        options.offline = offline
        options.cacheDirectory = cacheDir
        options.noCache = noCache
        options.kobisDailyLimit = kobisDailyLimit
        options.today = today
        options.logLevel = logLevel
    }
}

/// How upstream calls, poster downloads and a shared store behave: base URLs, time limits, the private-address and
/// shared-directory opt-ins, PostgreSQL. The worker's help lists them; a one-shot command takes them too but lists
/// them only under `--help-hidden` (a person at a terminal rarely needs them).
struct UpstreamFlags: ParsableArguments {
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
            "Keep the cache, the poster index and the KOBIS quota in PostgreSQL, shared by every machine (env BOXOFFICE_DATABASE_URL; postgres://user:password@host:5432/db?sslmode=…). Default: SQLite in the cache directory.",
            valueName: "url"))
    var databaseUrl: String?
    @Option(
        help: ArgumentHelp(
            "How long a worker's lease of KOBIS calls holds; a worker that dies holding one loses it after this.",
            valueName: "seconds"))
    var leaseSeconds: Double = 60

    func apply(to options: inout WorkerOptions) {
        options.kobisBaseURL = kobisBaseUrl
        options.kakaoBaseURL = kakaoBaseUrl
        options.timeout = timeout
        options.deadline = deadline
        options.allowPrivateDownloads = allowPrivateDownloads
        options.allowSharedCacheDirectory = allowSharedCacheDir
        options.databaseURL = databaseUrl
        options.leaseSeconds = leaseSeconds
    }
}

/// The flags of a one-shot command (`daily`, `movie`, …): the data flags, and the upstream flags out of its help.
struct CommandFlags: ParsableArguments {
    @OptionGroup var data: DataFlags
    @OptionGroup(visibility: .hidden) var upstream: UpstreamFlags

    var options: WorkerOptions {
        var options = WorkerOptions()
        data.apply(to: &options)
        upstream.apply(to: &options)
        return options
    }

    var logLevelText: String? { data.logLevelText }

    func validate() throws {
        try WorkerFlags.check(options, logLevel: logLevelText)
    }

    /// The line each command's help ends with, so the hidden flags can be found.
    static let moreFlags =
        "Base URLs, time limits, PostgreSQL and the download and cache-directory opt-ins: --help-hidden."
}
