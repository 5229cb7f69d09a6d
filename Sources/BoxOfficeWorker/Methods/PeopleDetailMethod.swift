import BoxOfficeCore
import JSONCore
import JSONRPC

/// `people.detail`: a person's record by KOBIS people code; `include: ["movies"]` adds each film's details.
struct PeopleDetailMethod: DomainMethod, TypedMethod {
    static let methodName = "people.detail"
    let summary =
        "A person's KOBIS record by people code: names, sex, role, homepages and filmography with their part in each film; include movies adds each film's details."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    struct Input: MethodInput, Hashable {
        var peopleCode: String
        /// Each film's `movie.detail` as well.
        var includeMovies = false
        var refresh = false

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("peopleCode", peopleCode)
            params.set("include", includeMovies ? ["movies"] : [])
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    /// The person, and with `include: ["movies"]` their films' details.
    struct Output: Sendable {
        var person: Kept<Person>
        var movies: FilmographyMovies?
    }

    /// Without `include`, the person's lookup (at once when in memory); with it, the films' details after it.
    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output> {
        let person = try reply(.person(input.peopleCode, refresh: input.refresh))
        guard input.includeMovies else { return person.map { Output(person: $0) } }
        return .work { [service] in
            let person = try await person.value()
            let movies = await FilmographyMovies.fetch(for: person.value, service: service) {
                context.reportProgress($0, total: $1, message: $2)
            }
            return Output(person: person, movies: movies)
        }
    }

    /// Without `include`, the text kept for the person's body.
    func result(_ output: Output) -> RPCResult {
        guard output.movies == nil else {
            return .value(ModelEncoding.person(output.person.value, movies: output.movies))
        }
        return result(body: output.person.body, source: output.person.value.source) {
            ModelEncoding.person(output.person.value)
        }
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension PeopleDetailMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(
            peopleCode: params.string("peopleCode") ?? "",
            includeMovies: object["include"]?.arrayValue?.contains(.string("movies")) == true,
            refresh: params.bool("refresh") == true)
    }
}
