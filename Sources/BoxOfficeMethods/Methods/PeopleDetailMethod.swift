package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `people.detail`: a person's record by KOBIS people code; `include: ["movies"]` adds each film's details.
package struct PeopleDetailMethod: DomainMethod, TypedMethod {
    package static let methodName = "people.detail"
    package let summary =
        "A person's KOBIS record by people code: names, sex, role, homepages and filmography with their part in each film; include movies adds each film's details."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    package struct Input: MethodInput, Hashable {
        package var peopleCode: String
        /// Each film's `movie.detail` as well.
        package var includeMovies = false
        package var refresh = false

        package init(peopleCode: String, includeMovies: Bool = false, refresh: Bool = false) {
            self.peopleCode = peopleCode
            self.includeMovies = includeMovies
            self.refresh = refresh
        }

        package static let fields: [InputField<Self>] = [
            .text("peopleCode", \.peopleCode),
            .custom(
                "include", read: { value, input in input.includeMovies = value.arrayValue?.contains("movies") == true },
                write: { input in input.includeMovies ? ["movies"] : nil }),
            .flag("refresh", \.refresh),
        ]
        package static let blank = Self(peopleCode: "")
    }

    /// The person, and with `include: ["movies"]` their films' details.
    package struct Output: Sendable {
        package var person: BodyBacked<Person>
        package var movies: FilmographyMovies?
    }

    /// Without `include`, the person's lookup (at once when in memory); with it, the films' details after it.
    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output> {
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
    package func result(_ output: Output) -> RPCResult {
        guard output.movies == nil else {
            return .value(ModelEncoding.person(output.person.value, movies: output.movies))
        }
        return result(body: output.person.body, source: output.person.value.source) {
            ModelEncoding.person(output.person.value)
        }
    }
}
