import BoxOfficeCore
import JSONCore
import JSONRPC

/// The output of a box office method: the box office, and with `include` each entry's parts.
///
/// Without `include`, the answer depends only on the cached upstream body, how many entries were asked for, and
/// where the body came from: its serialized text is kept beside the body (``AnswerText``) and written as is on the
/// next request. Decoding, building and dumping a ten-entry result through Jansson is most of the cost of an
/// answer, and a bot asking for yesterday's top 10 asks for the same one again and again. With `include`, the parts
/// have caches of their own, and the answer is built each time.
struct BoxOfficeAnswer: Sendable {
    /// The serialized answer kept beside a cached box office body, for one entry count and one source.
    struct AnswerText: DerivedKey {
        typealias Value = [UInt8]
        let limit: Int
        let source: Source
    }

    let office: Kept<BoxOffice>
    /// The parts asked for (empty: none).
    var include: Set<IncludedParts.Part> = []
    /// Each entry's parts, in entry order; empty without `include`.
    var parts: [IncludedParts.Entry] = []

    /// The result: the kept text when there is one, else the result built.
    var result: RPCResult {
        if include.isEmpty, let kept = office.kept {
            let key = AnswerText(limit: office.value.entries.count, source: office.value.source)
            return .encoded(kept.value(key) { JSONSerializer.serialize(ModelEncoding.boxOffice(office.value)) })
        }
        return .value(ModelEncoding.boxOffice(office.value, include: include, parts: parts))
    }
}
