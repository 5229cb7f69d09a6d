package import BoxOfficeCore
package import JSONCore
package import JSONRPC

/// Methods answered by one ``Lookup`` (a movie's, a person's or a company's details, a code list): answered on the
/// spot when the body is in memory, as a cached box office is, and their text kept by that body.
///
/// A detail asked again (a bot's "who directed it?", an editor's hover) is otherwise a task, a hop through the chain
/// and an encoding per request; here it is a lookup in memory, a decoding from the parsed body, and the text made
/// once per body (``AnswerMemo``).
extension DomainMethod {
    /// At once when the lookup's body is fresh in memory (its value, or the error it is: a cached unknown code is
    /// answered without a second look); else the work that fetches it.
    package func reply<Value>(_ lookup: Lookup<Value>) throws(RPCError) -> Reply<BodyBacked<Value>> {
        switch service.inMemory(lookup) {
        case .success(let kept)?: return .ready(kept)
        case .failure(let error)?: throw error.rpcError
        case nil: break
        }
        return .work { [service] in
            try await withWireErrors { () async throws(BoxOfficeError) in try await service.fetch(lookup) }
        }
    }

    /// A value's result: the text kept for its body and source when the body is in memory, made by `encode` once;
    /// else encoded now. A first answer, fetched from KOBIS just now, is not kept: the answers after it come from
    /// the cache and say so.
    package func result(body: UInt64?, source: Source, _ encode: () -> JSONValue) -> RPCResult {
        guard let body, source.origin != .kobis else { return .value(encode()) }
        let key = AnswerMemo.Key(body: body, limit: 0, source: source)
        return .encoded(AnswerMemo.shared.text(key) { JSONSerializer.serialize(encode()) })
    }
}
