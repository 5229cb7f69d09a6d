import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.search`: KOBIS movies by title and/or director, a page at a time.
struct MovieSearchMethod: DomainMethod, TypedMethod {
    static let methodName = "movie.search"
    let summary = "Searches KOBIS movies by title and/or director (optionally a production year), a page at a time."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    /// A title and/or a director (the schema asks for one of them), a production year, a page.
    struct Input: MethodInput, Hashable {
        var title: String?
        var director: String?
        var year: Int?
        var page = 1
        var limit = 10

        var params: JSONObject {
            var params = Params.Writer()
            params.set("title", title)
            params.set("director", director)
            params.set("year", year)
            params.set("page", page, default: 1)
            params.set("limit", limit, default: 10)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) -> MethodReply<MovieSearch> {
        .work { [service] in
            try await answering { () async throws(BoxOfficeError) in
                try await service.search(
                    title: input.title, director: input.director, year: input.year, page: input.page,
                    limit: input.limit)
            }
        }
    }

    func result(_ search: MovieSearch) -> RPCResult {
        .value(ModelEncoding.search(search))
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension MovieSearchMethod.Input {
    init(params object: JSONObject) {
        let params = Params(object: object)
        self.init(
            title: params.string("title"), director: params.string("director"), year: params.int("year"),
            page: params.int("page") ?? 1, limit: params.int("limit") ?? 10)
    }
}
