import BoxOfficeCore
import Foundation

/// What the methods share at run time: the domain service over the right chain of fetchers, the cache, the quota
/// and the upstream counters.
///
/// The chain, outermost first: the cache (memory, then the shared SQLite store) → coalescing of identical calls in
/// flight → a bound on calls in flight per service → (live only) the KOBIS quota → the upstream: the live services
/// over one shared AsyncHTTPClient (``shutdown()`` closes it), or the embedded fixtures. Offline mode runs the same
/// chain with the fixtures as the upstream and the cache in memory only: recordings never enter the shared store.
public final class WorkerRuntime: Sendable {
    public let service: BoxOfficeService
    public let counters: UpstreamCounters
    /// What offline mode covers; nil when live.
    public let coverage: OfflineCoverage?
    public let cache: CachingFetcher
    /// The KOBIS budget; nil offline.
    public let quota: QuotaGuard?
    /// Poster downloads; nil offline or without a usable cache directory.
    public let downloader: PosterDownloader?
    /// Why downloads are unavailable, when they are.
    public let downloadUnavailable: String?
    private let transport: AsyncHTTPClientTransport?

    /// `warn` receives the one stderr warning about an unusable cache directory.
    public init(_ configuration: WorkerConfiguration, transport injected: (any HTTPTransport)? = nil, warn: @escaping @Sendable (String) -> Void = { _ in }) throws {
        counters = UpstreamCounters()
        let fixedToday = configuration.today
        let calendar: @Sendable () -> SeoulCalendar = {
            fixedToday.map(SeoulCalendar.init(today:)) ?? SeoulCalendar(secondsSince1970: Date().timeIntervalSince1970)
        }
        let today: @Sendable () -> CalendarDate = { calendar().today }
        let now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        let warnings = CacheWarnings(warn)
        switch configuration.mode {
        case .offline:
            guard let index = EmbeddedFixtures.text("index.json") else {
                throw BoxOfficeError(.offlineUnavailable, "the binary has no embedded fixtures (Fixtures/index.json)")
            }
            let fixtures = try FixtureFetcher(index: index) { EmbeddedFixtures.text($0) }
            coverage = fixtures.coverage
            transport = nil
            quota = nil
            downloader = nil
            downloadUnavailable = "offline mode has no network to download images from; set KOBIS_API_KEY to go live"
            let upstream = LimitingFetcher(fixtures, perService: configuration.upstreamWidth)
            cache = CachingFetcher(CoalescingFetcher(upstream), store: nil, now: now, today: today, warnings: warnings)
            service = BoxOfficeService(fetcher: cache, calendar: calendar, offline: fixtures.coverage)
        case .live:
            let production = injected == nil ? AsyncHTTPClientTransport() : nil
            let http = injected ?? production!
            transport = production
            coverage = nil
            var store: CacheStore?
            if let directory = configuration.cacheDirectory {
                do {
                    store = try CacheStore(directory: URL(fileURLWithPath: directory, isDirectory: true))
                } catch {
                    warnings.warn("the cache directory \(directory) cannot be used (\(error)); running without a cache")
                }
            }
            let quota = QuotaGuard(limit: configuration.kobisDailyLimit, store: store, today: today, warnings: warnings)
            self.quota = quota
            let live = LiveFetcher(
                kobis: configuration.kobis, kakao: configuration.kakao, transport: http,
                timeout: configuration.timeout, counters: counters
            )
            let upstream = LimitingFetcher(QuotaFetcher(live, quota: quota), perService: configuration.upstreamWidth)
            cache = CachingFetcher(CoalescingFetcher(upstream), store: store, now: now, today: today, warnings: warnings)
            service = BoxOfficeService(fetcher: cache, calendar: calendar)
            downloader = store.map { PosterDownloader(store: $0, transport: http, timeout: configuration.timeout) }
            downloadUnavailable = store == nil
                ? "poster downloads are kept in the cache directory, and there is none (--no-cache, or it cannot be used)"
                : nil
        }
    }

    /// Writes what the cache still holds back, gives back the unspent KOBIS lease, and closes the HTTP client's
    /// connections.
    public func shutdown() async {
        await cache.flush()
        await quota?.release()
        await transport?.shutdown()
    }

    /// The first stderr line of offline mode: what is covered and how to go live.
    public var offlineNotice: String? {
        guard let coverage else { return nil }
        let daily = coverage.dailyDates.map(\.description).joined(separator: ", ")
        let weekly = coverage.weeklyPeriods.map { "\($0.period.rawValue) ending \($0.end)" }.joined(separator: ", ")
        return "offline mode: answers come from the embedded recorded responses (daily \(daily); \(weekly); \(coverage.movieCodes.count) movies); set KOBIS_API_KEY (and KAKAO_REST_API_KEY for posters) and drop --offline to go live"
    }
}
