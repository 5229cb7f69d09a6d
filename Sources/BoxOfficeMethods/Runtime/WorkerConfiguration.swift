package import BoxOfficeCore
package import JSONRPC

/// Everything the worker is started with, already resolved from flags and environment (flags win).
package struct WorkerConfiguration: Sendable {
    /// Where the answers come from.
    package enum Mode: String, Sendable {
        case live
        /// The embedded recorded fixtures: no key, or `--offline`.
        case offline
    }

    package static let defaultKOBISBaseURL = "http://www.kobis.or.kr/kobisopenapi/webservice/rest"
    package static let defaultKakaoBaseURL = "https://dapi.kakao.com"
    /// The defaults of `--timeout`, `--deadline` and `--kobis-daily-limit`, written here once: the flag table
    /// (``WorkerFlag``, in the app) offers them, and a configuration made without flags (a test, a fuzz target) has
    /// the limits of a worker started without any.
    package static let defaultTimeoutSeconds = 10.0
    package static let defaultDeadlineSeconds = 30.0
    package static let defaultKOBISDailyLimit = 2950

    package var server: ServerConfiguration
    package var mode: Mode
    /// Registers the `diagnostics.*` methods (`--diagnostics`).
    package var diagnostics: Bool
    /// KOBIS base URL and key (`--kobis-base-url`/`KOBIS_BASE_URL`, `KOBIS_API_KEY`).
    package var kobis: LiveFetcher.Endpoint
    /// Kakao base URL and key (`--kakao-base-url`/`KAKAO_BASE_URL`, `KAKAO_REST_API_KEY`).
    package var kakao: LiveFetcher.Endpoint
    /// Per upstream attempt (`--timeout`): the time to its head, connecting included, and the longest silence
    /// between two reads of its body.
    package var timeout: Duration
    /// The most one upstream call may take, body included (`--deadline`).
    package var deadline: Duration
    /// Poster downloads may go to loopback and private addresses (`--allow-private-downloads`,
    /// `BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS=1`): tests and private mirrors only.
    package var allowPrivateDownloads: Bool
    /// Use a cache directory other users can write to or that another user owns (`--allow-shared-cache-dir`).
    package var allowSharedCacheDirectory: Bool
    /// A fixed "today" for replays and tests (`--today`/`BOXOFFICE_TODAY`); nil: the date in Asia/Seoul.
    package var today: CalendarDate?
    /// The shared cache directory (`--cache-dir`/`BOXOFFICE_CACHE_DIR`, else the XDG cache home); nil: no cache on
    /// disk (`--no-cache`).
    package var cacheDirectory: String?
    /// The local KOBIS budget per KST day (`--kobis-daily-limit`).
    package var kobisDailyLimit: Int
    /// The shared PostgreSQL store (`--database-url`/`BOXOFFICE_DATABASE_URL`); nil: SQLite in the cache directory.
    package var database: DatabaseURL?
    /// How long a quota lease holds (`--lease-seconds`).
    package var leaseSeconds: Double
    /// Upstream calls in flight at once, per service: 20, so that one wave covers a box office page's ten details
    /// (and, at Kakao, its ten posters) and a filmography of twenty films (`people.detail` with `include`).
    package var upstreamWidth: Int
    /// `--offline` was given although a key is set (said in the offline notice).
    package var offlineRequested: Bool
    /// Where cards and downloaded posters are written instead of into the answer (`--files-dir`); nil: base64 in
    /// the answer (a card) and the cache directory's `posters/` (a poster).
    package var filesDirectory: String?
    /// Whether a card goes to ``filesDirectory`` too: not over MCP, whose hosts show a picture from its `image`
    /// block (posters still go there).
    package var cardsAsFiles = true

    /// The defaults are a worker's without flags.
    package init(
        server: ServerConfiguration = ServerConfiguration(), mode: Mode = .offline, diagnostics: Bool = false,
        kobis: LiveFetcher.Endpoint = LiveFetcher.Endpoint(
            baseURL: defaultKOBISBaseURL, key: nil, setting: "KOBIS_API_KEY"),
        kakao: LiveFetcher.Endpoint = LiveFetcher.Endpoint(
            baseURL: defaultKakaoBaseURL, key: nil, setting: "KAKAO_REST_API_KEY"),
        timeout: Duration = .seconds(defaultTimeoutSeconds), today: CalendarDate? = nil,
        cacheDirectory: String? = nil, kobisDailyLimit: Int = defaultKOBISDailyLimit,
        database: DatabaseURL? = nil, leaseSeconds: Double = QuotaGuard.defaultLeaseSeconds,
        upstreamWidth: Int = 20, offlineRequested: Bool = false,
        deadline: Duration = .seconds(defaultDeadlineSeconds), allowPrivateDownloads: Bool = false,
        allowSharedCacheDirectory: Bool = false, filesDirectory: String? = nil
    ) {
        self.filesDirectory = filesDirectory
        self.allowSharedCacheDirectory = allowSharedCacheDirectory
        self.deadline = deadline
        self.allowPrivateDownloads = allowPrivateDownloads
        self.database = database
        self.leaseSeconds = leaseSeconds
        self.offlineRequested = offlineRequested
        self.cacheDirectory = cacheDirectory
        self.kobisDailyLimit = kobisDailyLimit
        self.upstreamWidth = upstreamWidth
        self.server = server
        self.mode = mode
        self.diagnostics = diagnostics
        self.kobis = kobis
        self.kakao = kakao
        self.timeout = timeout
        self.today = today
    }
}

extension WorkerConfiguration {
    /// `$XDG_CACHE_HOME/boxoffice-worker`, else `~/.cache/boxoffice-worker` (protocol.md §5).
    package static func defaultCacheDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/boxoffice-worker" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache/boxoffice-worker"
    }
}
