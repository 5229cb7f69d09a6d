package import BoxOfficeCore
import FoundationEssentials
import Glibc
package import Logging

/// What the methods share at run time: the domain service over the right chain of fetchers, the cache, the quota
/// and the upstream counters.
///
/// The chain, outermost first: the cache (memory, then the shared store: SQLite in the cache directory, or
/// PostgreSQL with `--database-url`) → coalescing of identical calls in
/// flight → a bound on calls in flight per service → (live only) the KOBIS quota → the upstream: the live services
/// over one shared AsyncHTTPClient (``shutdown()`` closes it), or the embedded fixtures. Offline mode runs the same
/// chain with the fixtures as the upstream and the cache in memory only: recordings never enter the shared store.
package final class WorkerRuntime: Sendable {
    package let service: BoxOfficeService
    package let counters: UpstreamCounters
    /// The recordings; nil when live.
    private let fixtures: FixtureFetcher?
    /// Whether answers come from the recordings.
    package var isOffline: Bool { fixtures != nil }
    /// What offline mode covers; nil when live. The first look parses the recordings' index.
    package var coverage: OfflineCoverage? { fixtures?.coverage }
    package let cache: CachingFetcher
    /// The KOBIS budget; nil offline.
    package let quota: QuotaGuard?
    /// Poster downloads; nil offline or without a usable cache directory.
    package let downloader: PosterDownloader?
    /// Why downloads are unavailable, when they are.
    package let downloadUnavailable: String?
    /// The shared store; nil offline, with `--no-cache`, or when the cache directory cannot be used.
    package let store: (any BoxOfficeStore)?
    /// Where downloaded posters are kept for the answer (`--files-dir`); nil: their place in the cache directory.
    package let files: FilesDirectory?
    /// Where drawn cards are kept for the answer (`--files-dir`, not over MCP); nil: base64 in the answer.
    package let cardFiles: FilesDirectory?
    private let warnings: CacheWarnings
    /// Where what a request cannot say goes (stderr in the worker): a card's poster left out.
    package let logger: Logger
    /// The bound on calls in flight per service (``WorkerConfiguration/upstreamWidth``), which a run's scan keeps to
    /// as well.
    package let upstreamWidth: Int
    private let transport: AsyncHTTPClientTransport?

    /// `logger` takes the warnings about a store that does not work (one per outage) and the notice when it works
    /// again.
    package init(
        _ configuration: WorkerConfiguration, transport injected: (any HTTPTransport)? = nil,
        logger: Logger = Logger(label: "boxoffice-worker", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        counters = UpstreamCounters()
        self.logger = logger
        upstreamWidth = configuration.upstreamWidth
        files = try configuration.filesDirectory.map { (path) throws(BoxOfficeError) in try FilesDirectory(path) }
        cardFiles = configuration.cardsAsFiles ? files : nil
        let fixedToday = configuration.today
        let calendar: @Sendable () -> SeoulCalendar = {
            fixedToday.map(SeoulCalendar.init(today:)) ?? SeoulCalendar(secondsSince1970: Date().timeIntervalSince1970)
        }
        let today: @Sendable () -> CalendarDate = { calendar().today }
        let now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        let warnings = CacheWarnings({ logger.warning("\($0)") }, recovered: { logger.notice("\($0)") })
        self.warnings = warnings
        switch configuration.mode {
        case .offline:
            guard let index = EmbeddedFixtures.text("index.json"), let summary = EmbeddedFixtures.text("summary.json")
            else {
                throw BoxOfficeError(
                    .offlineUnavailable, "the binary has no embedded fixtures (Fixtures/index.json, summary.json)")
            }
            let fixtures = try FixtureFetcher(summary: summary, index: index) { EmbeddedFixtures.text($0) }
            self.fixtures = fixtures
            transport = nil
            store = nil
            quota = nil
            downloader = nil
            downloadUnavailable = "offline mode has no network to download images from; set KOBIS_API_KEY to go live"
            let upstream = LimitingFetcher(fixtures, perService: configuration.upstreamWidth)
            cache = CachingFetcher(
                CoalescingFetcher(upstream), store: nil, now: now, today: today, warnings: warnings,
                usable: UsableBody.check)
            service = BoxOfficeService(cache: cache, calendar: calendar, offline: fixtures.summary)
        case .live:
            let production =
                injected == nil
                ? AsyncHTTPClientTransport(deadline: configuration.deadline, silence: configuration.timeout) : nil
            let http = injected ?? production!
            transport = production
            fixtures = nil
            let store = try Self.openStore(configuration, warnings: warnings)
            self.store = store
            let quota = QuotaGuard(
                limit: configuration.kobisDailyLimit, store: store, worker: QuotaGuard.workerIdentity(),
                leaseSeconds: configuration.leaseSeconds, today: today, warnings: warnings)
            self.quota = quota
            let live = LiveFetcher(
                kobis: configuration.kobis, kakao: configuration.kakao, transport: http,
                timeout: configuration.timeout, deadline: configuration.deadline, counters: counters
            )
            let upstream = LimitingFetcher(QuotaFetcher(live, quota: quota), perService: configuration.upstreamWidth)
            cache = CachingFetcher(
                CoalescingFetcher(upstream), store: store, now: now, today: today, warnings: warnings,
                usable: UsableBody.check)
            service = BoxOfficeService(cache: cache, calendar: calendar)
            // The posters folder's parent is checked as the SQLite store checks it (with PostgreSQL, only the
            // posters are kept there).
            let posters = configuration.cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            var unusable: String?
            if store is PostgresStore, let posters {
                do {
                    try CacheDirectory.prepare(posters, allowShared: configuration.allowSharedCacheDirectory)
                } catch {
                    unusable = "\(error)"
                    warnings.failed("poster downloads are off: \(error)")
                }
            }
            if let store, let posters, unusable == nil {
                downloader = PosterDownloader(
                    store: store, directory: posters, transport: http, timeout: configuration.timeout,
                    allowPrivate: configuration.allowPrivateDownloads)
            } else {
                downloader = nil
            }
            downloadUnavailable =
                unusable
                ?? (downloader == nil
                    ? "poster downloads are kept in the cache directory, and there is none (--no-cache, or it cannot be used)"
                    : nil)
        }
    }

    /// The store the configuration asks for: PostgreSQL with a database URL, else SQLite in the cache directory,
    /// else none. A cache directory that cannot be used is warned about and left out; a database written by a
    /// newer worker, or a URL that cannot work, stops the start.
    private static func openStore(_ configuration: WorkerConfiguration, warnings: CacheWarnings) throws
        -> (any BoxOfficeStore)?
    {
        if let database = configuration.database {
            return try PostgresStore(url: database)
        }
        guard let directory = configuration.cacheDirectory else { return nil }
        do {
            return try SQLiteStore(
                directory: URL(fileURLWithPath: directory, isDirectory: true),
                allowShared: configuration.allowSharedCacheDirectory)
        } catch let error as StoreError where error.kind == .newerSchema {
            throw error
        } catch {
            warnings.failed("the cache directory \(directory) cannot be used (\(error)); running without a cache")
            return nil
        }
    }

    /// Connects a network store before the first request: a newer schema is refused now (thrown), an unreachable
    /// server is warned about once and the worker starts without it (it reconnects by itself).
    package func start() async throws {
        guard let store = store as? PostgresStore else { return }
        do {
            try await store.connect()
        } catch let error where error.kind == .newerSchema {
            throw error
        } catch {
            warnings.failed(
                "\(error); serving from memory and upstream, counting KOBIS calls in this process until it is back")
        }
    }

    /// Runs the runtime's background work until ``shutdown()`` ends it or the calling task is cancelled: a
    /// PostgreSQL store's connection pool (``PostgresStore/run()``); with any other store it returns at once.
    ///
    /// Run it in the session's task group, beside the work, from before ``start()`` until after ``shutdown()``:
    /// the pool is then a child of the session, and the group waits for it to close its connections.
    package func run() async {
        guard let store = store as? PostgresStore else { return }
        await store.run()
    }

    /// Why poster downloads cannot be served, as the error a caller gets (offline: `offline_unavailable`; without
    /// a usable cache directory: `not_configured`); nil when they can.
    package var downloadRefusal: BoxOfficeError? {
        guard downloader == nil else { return nil }
        let offline = isOffline
        var error = BoxOfficeError(
            offline ? .offlineUnavailable : .notConfigured,
            "download: true is not available: \(downloadUnavailable ?? "no cache directory")")
        if offline { error.available = [] } else { error.setting = "BOXOFFICE_CACHE_DIR" }
        return error
    }

    /// The image at `url`, saved in the cache directory (or read from it), for `movie.poster` and the CLI alike.
    package func download(_ url: String, refresh: Bool = false) async throws(BoxOfficeError) -> PosterFile {
        guard let downloader else {
            throw downloadRefusal ?? BoxOfficeError(.notConfigured, "poster downloads are unavailable")
        }
        return try await downloader.download(url, refresh: refresh)
    }

    /// The image at `url` as `movie.poster` answers it: in `--files-dir` when one is given, else in the cache.
    package func downloadForAnswer(_ url: String, refresh: Bool) async throws(BoxOfficeError) -> PosterFile {
        let file = try await download(url, refresh: refresh)
        return try files?.keep(file) ?? file
    }

    /// Writes what the cache still holds back, gives back the unspent KOBIS lease, closes the store (which ends
    /// ``run()``) and the HTTP client's connections. The last step of every session, whatever ended it.
    package func shutdown() async {
        await cache.flush()
        await quota?.release()
        await store?.close()
        await transport?.shutdown()
    }

    /// The first stderr line of offline mode: what is covered and how to go live.
    package var offlineNotice: String? {
        guard let summary = fixtures?.summary else { return nil }
        let daily = summary.dailyDates.map(\.description).joined(separator: ", ")
        let weekly = summary.weeklyPeriods.map { "\($0.period.rawValue) ending \($0.end)" }.joined(separator: ", ")
        let runs = summary.runsThrough.map { "; films' runs through \($0)" } ?? ""
        return
            "offline mode: answers come from the embedded recorded responses (daily \(daily); \(weekly); \(summary.movieCount) movies\(runs)); set KOBIS_API_KEY (and KAKAO_REST_API_KEY for posters) and drop --offline to go live"
    }
}
