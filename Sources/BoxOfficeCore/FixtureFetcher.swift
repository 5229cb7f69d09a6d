import JSONCore
import Synchronization

/// Offline mode's upstream: the recorded responses in `Fixtures/`, looked up by the call's canonical key and
/// decoded by the same code as live bodies.
public struct FixtureFetcher: Fetcher {
    private let bodies: [String: [UInt8]]
    /// Each body parsed once, on first use: fixtures never change, so re-parsing them per request is waste.
    private let documents = ParsedDocuments()
    /// When the fixtures were written (RFC 3339): their `source.fetchedAt`.
    public let recordedAt: String
    /// What the fixtures cover, for `offline_unavailable` and for the offline defaults.
    public let coverage: OfflineCoverage

    /// `index` is `Fixtures/index.json`; `file` reads a fixture file by its path relative to `Fixtures/`.
    public init(index: String, file: (String) -> String?) throws(BoxOfficeError) {
        let root = try UpstreamReader.parse(.kobis, Array(index.utf8))
        recordedAt = try root.member("recordedAt").string()
        var bodies: [String: [UInt8]] = [:]
        var coverage = OfflineCoverage()
        for entry in try root.member("calls").elements() {
            let callReader = try entry.member("call")
            guard let service = Service(rawValue: try callReader.member("service").string()) else {
                throw callReader.fail("unknown service")
            }
            var parameters: [String: String] = [:]
            if case .object(let object) = try callReader.member("parameters").value {
                for member in object { parameters[member.key] = member.value.stringValue ?? member.value.description }
            }
            let call = UpstreamCall(service: service, path: try callReader.member("path").string(), parameters: parameters)
            let name = try entry.member("file").string()
            guard let text = file(name) else { throw entry.fail("the fixture file \(name) is missing") }
            bodies[call.key] = Array(text.utf8)
            coverage.record(call)
        }
        self.bodies = bodies
        self.coverage = coverage
    }

    public func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let key = call.key
        guard let body = bodies[key] else { throw coverage.unavailable(call) }
        return Fetched(body: body, source: Source(origin: .fixture, fetchedAt: recordedAt), document: documents.parsed(key, body))
    }
}

/// What recorded responses exist, in terms a host understands: dates, periods, movie codes, titles.
public struct OfflineCoverage: Sendable {
    public private(set) var dailyDates: [CalendarDate] = []
    public private(set) var weeklyPeriods: [(period: WeekPeriod, end: CalendarDate)] = []
    public private(set) var movieCodes: [String] = []
    public private(set) var posterQueries: [String] = []
    public private(set) var searches: [String] = []

    mutating func record(_ call: UpstreamCall) {
        switch call.path {
        case KOBISPaths.daily:
            if let date = call.parameters["targetDt"].flatMap(CalendarDate.init) { dailyDates.append(date); dailyDates.sort() }
        case KOBISPaths.weekly:
            if let date = call.parameters["targetDt"].flatMap(CalendarDate.init),
               let period = WeekPeriod.allCases.first(where: { $0.weekGb == call.parameters["weekGb"] }) {
                weeklyPeriods.append((period, date))
                weeklyPeriods.sort { $0.end < $1.end }
            }
        case KOBISPaths.movieInfo:
            if let code = call.parameters["movieCd"] { movieCodes.append(code) }
        case KOBISPaths.movieList:
            searches.append(call.parameters.sorted { $0.key < $1.key }.filter { $0.key != "curPage" && $0.key != "itemPerPage" }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
        case KakaoPaths.image:
            if let query = call.parameters["query"] { posterQueries.append(query) }
        default:
            break
        }
    }

    /// The `offline_unavailable` error for a call the fixtures do not cover, naming what they do cover.
    func unavailable(_ call: UpstreamCall) -> BoxOfficeError {
        let (what, available): (String, [String]) = switch call.path {
        case KOBISPaths.daily: ("this daily box office (only the whole country, all films)", dailyDates.map(\.description))
        case KOBISPaths.weekly: ("this weekly box office", weeklyPeriods.map { "\($0.period.rawValue) ending \($0.end)" })
        case KOBISPaths.movieInfo: ("this movie", movieCodes)
        case KOBISPaths.movieList: ("this search", searches)
        case KakaoPaths.image: ("this poster search", posterQueries)
        default: ("this call", [])
        }
        var error = BoxOfficeError(.offlineUnavailable, "offline mode: no recorded response covers \(what); set KOBIS_API_KEY to go live. Recorded: \(available.joined(separator: ", "))", service: call.service)
        error.available = available
        return error
    }
}

/// The KOBIS endpoints, relative to the base URL.
public enum KOBISPaths {
    public static let daily = "/boxoffice/searchDailyBoxOfficeList.json"
    public static let weekly = "/boxoffice/searchWeeklyBoxOfficeList.json"
    public static let movieInfo = "/movie/searchMovieInfo.json"
    public static let movieList = "/movie/searchMovieList.json"
}

/// The Kakao endpoint, relative to its base URL.
public enum KakaoPaths {
    public static let image = "/v2/search/image"
}

/// Parsed fixture bodies by call key, filled on first use; a body that does not parse is left to the decoder,
/// which reports it as it would a live one.
final class ParsedDocuments: Sendable {
    private let table = Mutex<[String: JSONValue]>([:])

    func parsed(_ key: String, _ body: [UInt8]) -> JSONValue? {
        if let known = table.withLock({ $0[key] }) { return known }
        guard let document = try? JSONParser.parse(body) else { return nil }
        table.withLock { $0[key] = document }
        return document
    }
}
