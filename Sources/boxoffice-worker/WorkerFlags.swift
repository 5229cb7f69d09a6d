import ArgumentParser
import BoxOfficeWorker
import FoundationEssentials
import Glibc
import Logging

/// The worker's flags as swift-argument-parser reads them for help, version and error messages, in the three groups
/// of the flag table (``WorkerFlag/Group``): how the long-lived faces serve (``ServingFlags``), where data comes from
/// and is kept (``DataFlags``), and how upstream calls, downloads and shared stores behave (``UpstreamFlags``). The
/// JSON-RPC and MCP faces list all three; a one-shot command takes ``CommandFlags``.
///
/// Each declaration names its row of the table, which gives the name, help, value name and default
/// (`WorkerFlag+ArgumentParser.swift`); only the property's type and its copy into ``WorkerOptions`` are written
/// here. The plain forms a host spawns with are read from the same table without swift-argument-parser
/// (``WorkerOptions/quickParse(_:)``); the flag table tests hold the two parses equal, flag by flag.
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
        if let logLevel, level(logLevel) == nil {
            throw ValidationError("log level \"\(logLevel)\" is not one of \(levels)")
        }
    }

    static let levels = "trace, debug, info, notice, warning, error, critical"

    /// The level named by `text`, in any case (`WARNING`, as Python's logging spells it); nil or empty (an unset
    /// variable, `BOXOFFICE_LOG_LEVEL=`) is the default, info, as every other variable treats empty as unset. Nil
    /// when `text` names no level.
    static func level(_ text: String?) -> Logger.Level? {
        guard let text, !text.isEmpty else { return .info }
        return Logger.Level(rawValue: text.lowercased())
    }

    /// The level for `face`: as ``level(_:)``, except that the filter's default is error, so that nothing in
    /// normal operation reaches stderr (a stream processor fails the message in flight on any byte there).
    static func level(_ text: String?, face: WorkerSession.ServedProtocol) -> Logger.Level? {
        if face.isPipe, text?.isEmpty ?? true { return .error }
        return level(text)
    }

    /// Logs go to stderr, at `level` and above, their upstream text made harmless (``CleanLogHandler``).
    static func bootstrapLogging(_ level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = CleanLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

/// How the long-lived faces read, work and answer: concurrency, order, limits, draining, diagnostics. A one-shot
/// command (`daily`, `movie`, …) has none of these, so its help does not list them.
struct ServingFlags: ParsableArguments {
    @Option(WorkerFlag.maxInFlight) var maxInFlight: Int
    @Flag(WorkerFlag.ordered) var ordered: Bool
    @Option(WorkerFlag.maxLineBytes) var maxLineBytes: Int
    @Option(WorkerFlag.maxBatch) var maxBatch: Int
    @Option(WorkerFlag.drainSeconds) var drainSeconds: Double
    @Flag(WorkerFlag.diagnostics) var diagnostics: Bool
    @Option(WorkerFlag.filesDir) var filesDir: String?

    func apply(to options: inout WorkerOptions) {
        options.maxInFlight = maxInFlight
        options.ordered = ordered
        options.maxLineBytes = maxLineBytes
        options.maxBatch = maxBatch
        options.drainSeconds = drainSeconds
        options.diagnostics = diagnostics
        options.filesDirectory = filesDir
    }
}

/// Where answers come from and where they are kept: offline or live, the cache, the KOBIS quota, today's date,
/// logging. Every face and command lists these.
struct DataFlags: ParsableArguments {
    @Flag(WorkerFlag.offline) var offline: Bool
    @Option(WorkerFlag.cacheDir) var cacheDir: String?
    @Flag(WorkerFlag.noCache) var noCache: Bool
    @Option(WorkerFlag.kobisDailyLimit) var kobisDailyLimit: Int
    @Option(WorkerFlag.today) var today: String?
    @Option(WorkerFlag.logLevel) var logLevel: String?

    /// `--log-level`, else `BOXOFFICE_LOG_LEVEL`; either one empty is unset (each command's default then holds).
    var logLevelText: String? {
        let given = { (text: String?) in text.flatMap { $0.isEmpty ? nil : $0 } }
        return given(logLevel) ?? given(ProcessInfo.processInfo.environment["BOXOFFICE_LOG_LEVEL"])
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
    @Option(WorkerFlag.kobisBaseURL) var kobisBaseUrl: String?
    @Option(WorkerFlag.kakaoBaseURL) var kakaoBaseUrl: String?
    @Option(WorkerFlag.timeout) var timeout: Double
    @Option(WorkerFlag.deadline) var deadline: Double
    @Flag(WorkerFlag.allowPrivateDownloads) var allowPrivateDownloads: Bool
    @Flag(WorkerFlag.allowSharedCacheDir) var allowSharedCacheDir: Bool
    @Option(WorkerFlag.databaseURL) var databaseUrl: String?
    @Option(WorkerFlag.leaseSeconds) var leaseSeconds: Double

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
