import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.search`: KOBIS movies by title and/or director, a page at a time.
struct MovieSearchMethod: DomainMethod {
    static let methodName = "movie.search"
    let summary = "Searches KOBIS movies by title and/or director (optionally a production year), a page at a time."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    func start(_ context: RequestContext) throws -> RPCReply {
        .later { [self] in try await answer(context) }
    }

    private func answer(_ context: RequestContext) async throws -> JSONValue {
        let params = Params(context)
        let result = try await answering { () async throws(BoxOfficeError) in
            try await service.search(
                title: params.string("title"), director: params.string("director"), year: params.int("year"),
                page: params.int("page") ?? 1, limit: params.int("limit") ?? 10
            )
        }
        return ModelEncoding.search(result)
    }
}
