import BoxOfficeCore
import JSONCore
import JSONRPC

/// The answer of a box office method.
///
/// Without `include`, the answer depends only on the cached upstream body, how many entries were asked for, and
/// where the body came from: its serialized text is kept beside the body (``DerivedValues``) and written as is on
/// the next request. Decoding, building and dumping a ten-entry result through Jansson is most of the cost of an
/// answer, and a bot asking for yesterday's top 10 asks for the same one again and again. With `include`, the parts
/// have caches of their own, and the answer is built each time.
enum BoxOfficeAnswer {
    /// The kept text of an answer, given at once when the box office is fresh in memory and nothing is included or
    /// refreshed: the request needs no task and no wait (``RPCMethod/respondAtOnce(_:)``). `office` looks the box
    /// office up in memory for the params and their date; a date the params reject is left to the usual path.
    static func atOnce(_ params: Params, _ office: (Params, CalendarDate?) -> BoxOffice?) -> RPCResult? {
        guard params.include.isEmpty, !params.refresh else { return nil }
        let date: CalendarDate?  // nil: the default date; `try?` would flatten it into "rejected"
        do { date = try params.date() } catch { return nil }
        return office(params, date).flatMap(text)
    }

    private static func text(_ office: BoxOffice) -> RPCResult? {
        guard let derived = office.derived else { return nil }
        let key = "answer \(office.entries.count) \(office.source.origin.rawValue) \(office.source.fetchedAt)"
        return .encoded(derived.value(key) { JSONSerializer.serialize(ModelEncoding.boxOffice(office)) })
    }

    static func answer(_ office: BoxOffice, include: Set<String>, service: BoxOfficeService, context: RequestContext) async -> RPCResult {
        if include.isEmpty, let kept = text(office) { return kept }
        let extras = await IncludedParts.fetch(for: office, include: include, service: service, context: context)
        return .value(ModelEncoding.boxOffice(office, extras: extras))
    }
}
