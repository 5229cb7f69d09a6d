import BoxOfficeCore
import JSONCore
import JSONRPC

/// Reads params that already passed their schema, so only rules no schema can express remain to check here.
struct Params {
    let object: JSONObject

    init(_ context: RequestContext) {
        object = context.params
    }

    func string(_ key: String) -> String? { object[key]?.stringValue }
    func bool(_ key: String) -> Bool? { object[key]?.boolValue }
    /// `refresh: true`: bypass the cache for this request's own upstream call, and rewrite it.
    var refresh: Bool { bool("refresh") == true }
    func int(_ key: String) -> Int? { object[key]?.numberValue.map { Int($0) } }

    /// A `date` param (its format is checked by the schema).
    func date(_ key: String = "date") throws(RPCError) -> CalendarDate? {
        guard let text = string(key) else { return nil }
        guard let date = CalendarDate(text) else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: [key]), "\"\(text)\" is not a date")
        }
        return date
    }

    /// A box office's `limit` (default 10 entries).
    var limit: Int { int("limit") ?? 10 }

    /// A weekly box office's `period` (default the weekend, KOBIS's own default).
    var period: WeekPeriod { string("period").flatMap(WeekPeriod.init(rawValue:)) ?? .weekend }

    var filters: BoxOfficeService.Filters {
        BoxOfficeService.Filters(
            multiMovie: bool("multiMovie"),
            nation: string("nation").flatMap(BoxOfficeService.Filters.Nation.init(rawValue:)),
            area: string("area")
        )
    }

    /// The parts of `include`.
    var include: Set<String> {
        Set(object["include"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}
