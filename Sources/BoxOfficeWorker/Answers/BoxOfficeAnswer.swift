import BoxOfficeCore
import JSONCore
import JSONRPC

/// The answer of a box office method.
///
/// Without `include`, the answer depends only on the cached upstream body, how many entries were asked for, and
/// where the body came from: its serialized text is kept beside the body (``AnswerText``) and written as is on the
/// next request. Decoding, building and dumping a ten-entry result through Jansson is most of the cost of an
/// answer, and a bot asking for yesterday's top 10 asks for the same one again and again. With `include`, the parts
/// have caches of their own, and the answer is built each time.
enum BoxOfficeAnswer {
    /// The serialized answer kept beside a cached box office body, for one entry count and one source.
    struct AnswerText: DerivedKey {
        typealias Value = [UInt8]
        let limit: Int
        let source: Source
    }

    /// The kept text of an answer without `include`; nil when the body is not kept in memory.
    static func keptText(_ office: Kept<BoxOffice>) -> RPCResult? {
        guard let kept = office.kept else { return nil }
        let key = AnswerText(limit: office.value.entries.count, source: office.value.source)
        return .encoded(kept.value(key) { JSONSerializer.serialize(ModelEncoding.boxOffice(office.value)) })
    }

    /// The answer, fetching the included parts concurrently (with progress) when `include` names any.
    static func answer(
        _ office: Kept<BoxOffice>, include: Set<String>, service: BoxOfficeService, context: RequestContext
    ) async -> RPCResult {
        if include.isEmpty, let kept = keptText(office) { return kept }
        let extras = await IncludedParts.fetch(for: office.value, include: include, service: service) {
            context.reportProgress($0, total: $1, message: $2)
        }
        return .value(ModelEncoding.boxOffice(office.value, extras: extras))
    }
}
