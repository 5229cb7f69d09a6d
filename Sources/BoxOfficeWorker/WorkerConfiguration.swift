import BoxOfficeCore
import JSONRPC

/// Everything the worker is started with, already resolved from flags and environment (flags win).
public struct WorkerConfiguration: Sendable {
    /// Where the answers come from.
    public enum Mode: String, Sendable {
        case live
        /// The embedded recorded fixtures: no key, or `--offline`.
        case offline
    }

    public static let defaultKOBISBaseURL = "http://www.kobis.or.kr/kobisopenapi/webservice/rest"
    public static let defaultKakaoBaseURL = "https://dapi.kakao.com"

    public var server: ServerConfiguration
    public var mode: Mode
    /// Registers the `diagnostics.*` methods (`--diagnostics`).
    public var diagnostics: Bool
    /// KOBIS base URL and key (`--kobis-base-url`/`KOBIS_BASE_URL`, `KOBIS_API_KEY`).
    public var kobis: LiveFetcher.Endpoint
    /// Kakao base URL and key (`--kakao-base-url`/`KAKAO_BASE_URL`, `KAKAO_REST_API_KEY`).
    public var kakao: LiveFetcher.Endpoint
    /// Per upstream call (`--timeout`).
    public var timeout: Duration
    /// A fixed "today" for replays and tests (`--today`/`BOXOFFICE_TODAY`); nil: the date in Asia/Seoul.
    public var today: CalendarDate?
    /// The shared cache directory (`--cache-dir`/`BOXOFFICE_CACHE_DIR`, else the XDG cache home); nil: no cache on
    /// disk (`--no-cache`).
    public var cacheDirectory: String?
    /// The local KOBIS budget per KST day (`--kobis-daily-limit`).
    public var kobisDailyLimit: Int
    /// Upstream calls in flight at once, per service.
    public var upstreamWidth: Int

    public init(
        server: ServerConfiguration = ServerConfiguration(), mode: Mode = .offline, diagnostics: Bool = false,
        kobis: LiveFetcher.Endpoint = LiveFetcher.Endpoint(baseURL: defaultKOBISBaseURL, key: nil, setting: "KOBIS_API_KEY"),
        kakao: LiveFetcher.Endpoint = LiveFetcher.Endpoint(baseURL: defaultKakaoBaseURL, key: nil, setting: "KAKAO_REST_API_KEY"),
        timeout: Duration = .seconds(10), today: CalendarDate? = nil, cacheDirectory: String? = nil,
        kobisDailyLimit: Int = 2950, upstreamWidth: Int = 10
    ) {
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
    public static func defaultCacheDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/boxoffice-worker" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache/boxoffice-worker"
    }
}

/// The worker's name and version, as `worker.status` and `rpc.discover` report them.
public enum WorkerIdentity {
    public static let name = "boxoffice-worker"
    public static let version = "0.1.0"
}
