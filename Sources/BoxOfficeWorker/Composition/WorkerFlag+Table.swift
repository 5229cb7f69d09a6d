import BoxOfficeCore
import BoxOfficeMethods
import JSONRPC

/// The table: every flag of the worker, in the order `--help` lists them (serving, data, upstream; a test holds the
/// two orders equal). A default that a lower layer owns is read from it (the server's limits from
/// ``ServerConfiguration``, the lease from ``QuotaGuard``), so each number is written once in the code base.
extension WorkerFlag {
    package static let all: [WorkerFlag] = [
        maxInFlight, ordered, maxLineBytes, maxBatch, drainSeconds, diagnostics, filesDir,
        offline, cacheDir, noCache, kobisDailyLimit, today, logLevel,
        kobisBaseURL, kakaoBaseURL, timeout, deadline, allowPrivateDownloads, allowSharedCacheDir, databaseURL,
        leaseSeconds,
    ]

    /// The JSON-RPC server's own defaults: its limits are its contract (protocol.md §1 and §5), and its tests build
    /// it without the worker.
    private static let server = ServerConfiguration()

    // MARK: serving

    package static let maxInFlight: WorkerFlag = int(
        "max-in-flight", .serving, { $0.maxInFlight }, { $0.maxInFlight = $1 }, default: server.maxInFlight,
        valueName: "n",
        help: "Requests worked on at once; reading stops (backpressure) when this many are in flight.")
    package static let ordered: WorkerFlag = flag(
        "ordered", .serving, { $0.ordered }, { $0.ordered = $1 },
        help: "Write responses in request order instead of as each completes.")
    package static let maxLineBytes: WorkerFlag = int(
        "max-line-bytes", .serving, { $0.maxLineBytes }, { $0.maxLineBytes = $1 }, default: server.maxLineBytes,
        valueName: "bytes",
        help: "Longest accepted line in bytes; a longer one is answered with -32600 and discarded while read.")
    package static let maxBatch: WorkerFlag = int(
        "max-batch", .serving, { $0.maxBatch }, { $0.maxBatch = $1 }, default: server.maxBatch, valueName: "n",
        help: "Most messages in one batch; a larger batch is answered with one -32600.")
    package static let drainSeconds: WorkerFlag = double(
        "drain-seconds", .serving, { $0.drainSeconds }, { $0.drainSeconds = $1 }, default: server.drainSeconds,
        valueName: "seconds",
        help: "On SIGTERM/SIGINT, seconds in-flight requests get to finish before they are answered with -32800.")
    package static let diagnostics: WorkerFlag = flag(
        "diagnostics", .serving, { $0.diagnostics }, { $0.diagnostics = $1 },
        help:
            "Also answer diagnostics.sleep and diagnostics.fail, for testing hosts (timeouts, cancellation, progress, crashes)."
    )

    package static let filesDir: WorkerFlag = text(
        "files-dir", .serving, { $0.filesDirectory }, { $0.filesDirectory = $1 }, valueName: "path",
        help:
            "Write cards and downloaded posters to this existing directory (<sha256>.<ext>) and answer with their path instead of base64."
    )

    // MARK: data

    package static let offline: WorkerFlag = flag(
        "offline", .data, { $0.offline }, { $0.offline = $1 },
        help: "Serve the embedded recorded fixtures even when KOBIS_API_KEY is set.")
    package static let cacheDir: WorkerFlag = text(
        "cache-dir", .data, { $0.cacheDirectory }, { $0.cacheDirectory = $1 }, valueName: "path",
        help:
            "The shared cache directory (env BOXOFFICE_CACHE_DIR; default $XDG_CACHE_HOME/boxoffice-worker, else ~/.cache/boxoffice-worker)."
    )
    package static let noCache: WorkerFlag = flag(
        "no-cache", .data, { $0.noCache }, { $0.noCache = $1 },
        help: "Keep no cache on disk (answers are still kept briefly in memory; poster downloads are off).")
    package static let kobisDailyLimit: WorkerFlag = int(
        "kobis-daily-limit", .data, { $0.kobisDailyLimit }, { $0.kobisDailyLimit = $1 },
        default: WorkerConfiguration.defaultKOBISDailyLimit,
        valueName: "n",
        help: "KOBIS calls allowed per day in Seoul, shared by every worker using the same cache; then quota_exhausted."
    )
    package static let today: WorkerFlag = text(
        "today", .data, { $0.today }, { $0.today = $1 }, valueName: "date",
        help: "Take this date (YYYY-MM-DD) as today in Seoul, for replays and tests (env BOXOFFICE_TODAY).")
    package static let logLevel: WorkerFlag = text(
        "log-level", .data, { $0.logLevel }, { $0.logLevel = $1 }, valueName: "level",
        help: "trace, debug, info, notice, warning, error or critical (env BOXOFFICE_LOG_LEVEL; default info).")

    // MARK: upstream

    package static let kobisBaseURL: WorkerFlag = text(
        "kobis-base-url", .upstream, { $0.kobisBaseURL }, { $0.kobisBaseURL = $1 }, valueName: "url",
        help: "KOBIS base URL (env KOBIS_BASE_URL); endpoint paths are appended.")
    package static let kakaoBaseURL: WorkerFlag = text(
        "kakao-base-url", .upstream, { $0.kakaoBaseURL }, { $0.kakaoBaseURL = $1 }, valueName: "url",
        help: "Kakao base URL (env KAKAO_BASE_URL); /v2/search/image is appended.")
    package static let timeout: WorkerFlag = double(
        "timeout", .upstream, { $0.timeout }, { $0.timeout = $1 },
        default: WorkerConfiguration.defaultTimeoutSeconds, valueName: "seconds",
        help: "Seconds an upstream attempt may take to its head, and stay silent within its body (3 attempts).")
    package static let deadline: WorkerFlag = double(
        "deadline", .upstream, { $0.deadline }, { $0.deadline = $1 },
        default: WorkerConfiguration.defaultDeadlineSeconds, valueName: "seconds",
        help: "Seconds one upstream call may take in all, its whole body included.")
    package static let allowPrivateDownloads: WorkerFlag = flag(
        "allow-private-downloads", .upstream, { $0.allowPrivateDownloads }, { $0.allowPrivateDownloads = $1 },
        help:
            "Let poster downloads reach loopback and private addresses (env BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS=1): for tests and private mirrors."
    )
    package static let allowSharedCacheDir: WorkerFlag = flag(
        "allow-shared-cache-dir", .upstream, { $0.allowSharedCacheDirectory }, { $0.allowSharedCacheDirectory = $1 },
        help:
            "Use a cache directory that other users can write to or that another user owns (refused otherwise: they could replace the cache)."
    )
    package static let databaseURL: WorkerFlag = text(
        "database-url", .upstream, { $0.databaseURL }, { $0.databaseURL = $1 }, valueName: "url",
        help:
            "Keep the cache, the poster index and the KOBIS quota in PostgreSQL, shared by every machine (env BOXOFFICE_DATABASE_URL; postgres://user:password@host:5432/db?sslmode=…). Default: SQLite in the cache directory."
    )
    package static let leaseSeconds: WorkerFlag = double(
        "lease-seconds", .upstream, { $0.leaseSeconds }, { $0.leaseSeconds = $1 },
        default: QuotaGuard.defaultLeaseSeconds, valueName: "seconds",
        help: "How long a worker's lease of KOBIS calls holds; a worker that dies holding one loses it after this.")
}
