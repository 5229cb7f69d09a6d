import BoxOfficeCore
import JSONCore
import JSONRPC
import JSONSchema
import MCP

/// Box offices and movies as MCP resources: `boxoffice://daily/{date}`, `boxoffice://weekly/{period}/{date}`,
/// `boxoffice://movie/{movieCode}`, read as `application/json` through the same methods as the tools.
enum BoxOfficeResources {
    static let templates = [
        MCPResourceTemplate(
            uriTemplate: "boxoffice://daily/{date}", name: "daily-box-office", title: "Daily box office",
            description:
                "A day's box office (YYYY-MM-DD, up to yesterday in Asia/Seoul), as boxoffice_daily returns it.",
            mimeType: "application/json"),
        MCPResourceTemplate(
            uriTemplate: "boxoffice://weekly/{period}/{date}", name: "weekly-box-office", title: "Weekly box office",
            description:
                "A finished week, weekend or weekdays period containing the date, as boxoffice_weekly returns it.",
            mimeType: "application/json"),
        MCPResourceTemplate(
            uriTemplate: "boxoffice://movie/{movieCode}", name: "movie", title: "Movie details",
            description: "A movie's details by KOBIS movie code, as movie_detail returns them.",
            mimeType: "application/json"),
    ]

    /// Offline, the recordings (so a host can browse what is there); live, none (the templates name everything).
    static func list(_ coverage: OfflineCoverage?) -> [MCPResource] {
        guard let coverage else { return [] }
        let daily = coverage.dailyDates.map {
            MCPResource(
                uri: "boxoffice://daily/\($0)", name: "daily-\($0)", title: "Box office of \($0)",
                mimeType: "application/json")
        }
        let weekly = coverage.weeklyPeriods.map {
            MCPResource(
                uri: "boxoffice://weekly/\($0.period.rawValue)/\($0.end)", name: "\($0.period.rawValue)-\($0.end)",
                title: "Box office, \($0.period.rawValue) ending \($0.end)", mimeType: "application/json")
        }
        let movies = coverage.movieCodes.map {
            MCPResource(
                uri: "boxoffice://movie/\($0)", name: "movie-\($0)", title: "Movie \($0)", mimeType: "application/json")
        }
        return daily + weekly + movies
    }

    /// The method and params a URI names; nil for a URI that names no resource.
    static func request(_ uri: String) -> (method: String, params: JSONObject)? {
        let prefix = "boxoffice://"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("daily", 2): return ("boxoffice.daily", ["date": .string(parts[1])])
        case ("weekly", 3): return ("boxoffice.weekly", ["period": .string(parts[1]), "date": .string(parts[2])])
        case ("movie", 2): return ("movie.detail", ["movieCode": .string(parts[1])])
        default: return nil
        }
    }

    /// Reads `uri` through its method's one entrance (its params checked against the method's schema: `-32602` if
    /// not valid).
    static func read(_ uri: String, _ registry: MethodRegistry, _ context: RequestContext) throws -> RPCReply? {
        guard let (name, params) = request(uri), let method = registry.method(named: name) else { return nil }
        return try method.enter(params, context)
    }
}
