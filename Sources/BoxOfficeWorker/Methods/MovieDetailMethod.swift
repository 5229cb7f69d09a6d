import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.detail`: a movie's details by KOBIS movie code.
struct MovieDetailMethod: DomainMethod {
    static let methodName = "movie.detail"
    let summary =
        "A movie's details by KOBIS movie code: titles, year, opening date, runtime, rating, nations, genres, people, companies."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    func start(_ context: RequestContext) throws -> RPCReply {
        .later { [self] in try await answer(context) }
    }

    private func answer(_ context: RequestContext) async throws -> JSONValue {
        let params = Params(context)
        let code = params.string("movieCode") ?? ""
        return ModelEncoding.movie(
            try await answering { () async throws(BoxOfficeError) in
                try await service.movie(code: code, refresh: params.refresh)
            })
    }
}
