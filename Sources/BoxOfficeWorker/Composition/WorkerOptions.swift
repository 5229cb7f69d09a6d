import BoxOfficeCore
package import BoxOfficeMethods
import JSONRPC

/// The worker's flags as given on the command line, before the environment is consulted; ``configuration(environment:)``
/// resolves them (flags win over the environment) and checks every rule, so `main` only parses.
///
/// One stored property per row of the flag table (``WorkerFlag``), which the row reads and writes by key path; a
/// number's default is the row's (a flag is off and a text nil unless given). Equatable, so a test can hold the
/// quick parser and swift-argument-parser to the same options.
package struct WorkerOptions: Sendable, Equatable {
    package var maxInFlight: Int = WorkerFlag.maxInFlight.defaultInt
    package var ordered = false
    package var maxLineBytes: Int = WorkerFlag.maxLineBytes.defaultInt
    package var maxBatch: Int = WorkerFlag.maxBatch.defaultInt
    package var drainSeconds: Double = WorkerFlag.drainSeconds.defaultDouble
    package var offline = false
    package var kobisBaseURL: String?
    package var kakaoBaseURL: String?
    package var timeout: Double = WorkerFlag.timeout.defaultDouble
    package var deadline: Double = WorkerFlag.deadline.defaultDouble
    package var allowPrivateDownloads = false
    package var allowSharedCacheDirectory = false
    package var cacheDirectory: String?
    package var noCache = false
    package var kobisDailyLimit: Int = WorkerFlag.kobisDailyLimit.defaultInt
    /// `--database-url`; nil: `BOXOFFICE_DATABASE_URL`, else SQLite in the cache directory.
    package var databaseURL: String?
    package var leaseSeconds: Double = WorkerFlag.leaseSeconds.defaultDouble
    package var today: String?
    package var diagnostics = false
    /// `--files-dir`: cards and downloaded posters as files there, not base64 in the answer.
    package var filesDirectory: String?
    /// `--log-level`; nil: `BOXOFFICE_LOG_LEVEL`, else `info`.
    package var logLevel: String?

    package init() {}

    /// A flag value the worker cannot run with; the message names the flag.
    package struct Invalid: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The configuration these flags and `environment` make.
    /// - Throws: ``Invalid`` naming the first flag (or variable) that breaks a rule.
    package func configuration(environment: [String: String]) throws(Invalid) -> WorkerConfiguration {
        func check(_ rule: Bool, _ message: String) throws(Invalid) {
            if !rule { throw Invalid(description: message) }
        }
        try check(maxInFlight >= 1, "--max-in-flight must be at least 1")
        try check(maxLineBytes >= 64, "--max-line-bytes must be at least 64")
        try check(maxBatch >= 1, "--max-batch must be at least 1")
        try check(drainSeconds >= 0 && drainSeconds.isFinite, "--drain-seconds must be 0 or more")
        try check(timeout > 0 && timeout.isFinite, "--timeout must be more than 0 seconds")
        try check(deadline > 0 && deadline <= 86_400, "--deadline must be more than 0 seconds and at most a day")
        try check(timeout <= 86_400, "--timeout must be at most a day (86400 seconds)")
        try check(kobisDailyLimit >= 0, "--kobis-daily-limit must be 0 or more")
        try check(!(noCache && cacheDirectory != nil), "--no-cache and --cache-dir contradict each other")
        try check(leaseSeconds >= 1 && leaseSeconds.isFinite, "--lease-seconds must be at least 1")
        if let filesDirectory {
            do {
                _ = try FilesDirectory(filesDirectory)
            } catch {
                throw Invalid(description: error.message)
            }
        }
        let set = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var database: DatabaseURL?
        if let text = databaseURL ?? set("BOXOFFICE_DATABASE_URL") {
            try check(
                !noCache,
                "--database-url and --no-cache contradict each other (the database is the cache; posters still need a cache directory)"
            )
            do {
                database = try DatabaseURL(text)
            } catch {
                throw Invalid(description: "--database-url (or BOXOFFICE_DATABASE_URL): \(error)")
            }
        }
        let todayText = today ?? set("BOXOFFICE_TODAY")
        var fixedToday: CalendarDate?
        if let todayText {
            fixedToday = CalendarDate(todayText)
            try check(fixedToday != nil, "today \"\(todayText)\" is not a date (YYYY-MM-DD)")
        }
        let kobisKey = set("KOBIS_API_KEY")
        return WorkerConfiguration(
            server: ServerConfiguration(
                maxInFlight: maxInFlight, ordered: ordered, maxLineBytes: maxLineBytes, maxBatch: maxBatch,
                drainSeconds: drainSeconds
            ),
            mode: kobisKey != nil && !offline ? .live : .offline,
            diagnostics: diagnostics,
            kobis: LiveFetcher.Endpoint(
                baseURL: kobisBaseURL ?? environment["KOBIS_BASE_URL"] ?? WorkerConfiguration.defaultKOBISBaseURL,
                key: kobisKey, setting: "KOBIS_API_KEY"
            ),
            kakao: LiveFetcher.Endpoint(
                baseURL: kakaoBaseURL ?? environment["KAKAO_BASE_URL"] ?? WorkerConfiguration.defaultKakaoBaseURL,
                key: set("KAKAO_REST_API_KEY"), setting: "KAKAO_REST_API_KEY"
            ),
            timeout: .milliseconds(Int64(timeout * 1000)),
            today: fixedToday,
            cacheDirectory: noCache
                ? nil
                : cacheDirectory ?? set("BOXOFFICE_CACHE_DIR")
                    ?? WorkerConfiguration.defaultCacheDirectory(environment: environment),
            kobisDailyLimit: kobisDailyLimit,
            database: database,
            leaseSeconds: leaseSeconds,
            offlineRequested: offline && kobisKey != nil,
            deadline: .milliseconds(Int64(deadline * 1000)),
            allowPrivateDownloads: allowPrivateDownloads || environment["BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS"] == "1",
            allowSharedCacheDirectory: allowSharedCacheDirectory,
            filesDirectory: filesDirectory
        )
    }
}
