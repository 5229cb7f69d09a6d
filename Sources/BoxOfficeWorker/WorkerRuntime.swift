import BoxOfficeCore
import Foundation

/// What the methods share at run time: the domain service over the right fetcher, and the upstream counters.
///
/// Offline, the fetcher serves the embedded fixtures; live, it calls KOBIS and Kakao through one shared
/// AsyncHTTPClient, which ``shutdown()`` closes.
public final class WorkerRuntime: Sendable {
    public let service: BoxOfficeService
    public let counters: UpstreamCounters
    /// What offline mode covers; nil when live.
    public let coverage: OfflineCoverage?
    private let transport: AsyncHTTPClientTransport?

    public init(_ configuration: WorkerConfiguration, transport injected: (any HTTPTransport)? = nil) throws {
        counters = UpstreamCounters()
        let today = configuration.today
        let calendar: @Sendable () -> SeoulCalendar = {
            today.map(SeoulCalendar.init(today:)) ?? SeoulCalendar(secondsSince1970: Date().timeIntervalSince1970)
        }
        switch configuration.mode {
        case .offline:
            guard let index = EmbeddedFixtures.text("index.json") else {
                throw BoxOfficeError(.offlineUnavailable, "the binary has no embedded fixtures (Fixtures/index.json)")
            }
            let fixtures = try FixtureFetcher(index: index) { EmbeddedFixtures.text($0) }
            coverage = fixtures.coverage
            transport = nil
            service = BoxOfficeService(fetcher: fixtures, calendar: calendar, offline: fixtures.coverage)
        case .live:
            let production = injected == nil ? AsyncHTTPClientTransport() : nil
            transport = production
            coverage = nil
            let fetcher = LiveFetcher(
                kobis: configuration.kobis, kakao: configuration.kakao, transport: injected ?? production!,
                timeout: configuration.timeout, counters: counters
            )
            // Identical calls in flight at once (the same movie's details for two parts, or two hosts' requests)
            // are made once.
            service = BoxOfficeService(fetcher: CoalescingFetcher(fetcher), calendar: calendar)
        }
    }

    /// Closes the HTTP client's connections.
    public func shutdown() async {
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
