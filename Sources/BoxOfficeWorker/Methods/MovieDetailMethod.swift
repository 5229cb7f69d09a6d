import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.detail`: a movie's details by KOBIS movie code.
struct MovieDetailMethod: DomainMethod, TypedMethod {
    static let methodName = "movie.detail"
    let summary =
        "A movie's details by KOBIS movie code: titles, year, opening date, runtime, rating, nations, genres, people, companies."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    struct Input: MethodInput, Hashable {
        var movieCode: String
        var refresh = false

        var params: JSONObject {
            var params = Params.Writer()
            params.set("movieCode", movieCode)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> MethodReply<Kept<Movie>> {
        try reply(.movie(input.movieCode, refresh: input.refresh))
    }

    func result(_ movie: Kept<Movie>) -> RPCResult {
        result(body: movie.body, source: movie.value.source) { ModelEncoding.movie(movie.value) }
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension MovieDetailMethod.Input {
    init(params object: JSONObject) {
        let params = Params(object: object)
        self.init(movieCode: params.string("movieCode") ?? "", refresh: params.bool("refresh") == true)
    }
}
