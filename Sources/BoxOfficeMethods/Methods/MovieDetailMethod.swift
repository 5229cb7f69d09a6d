package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `movie.detail`: a movie's details by KOBIS movie code.
package struct MovieDetailMethod: DomainMethod, TypedMethod {
    package static let methodName = "movie.detail"
    package let summary =
        "A movie's details by KOBIS movie code: titles, year, opening date, runtime, rating, nations, genres, people, companies."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    package struct Input: MethodInput, Hashable {
        package var movieCode: String
        package var refresh = false

        package init(movieCode: String, refresh: Bool = false) {
            (self.movieCode, self.refresh) = (movieCode, refresh)
        }

        package static let fields: [InputField<Self>] = [.text("movieCode", \.movieCode), .flag("refresh", \.refresh)]
        package static let blank = Self(movieCode: "")
    }

    /// The movie, with the serial of the body it was made from.
    package struct Answer: Sendable {
        package let movie: BodyBacked<Movie>

        package init(movie: BodyBacked<Movie>) { self.movie = movie }
    }

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Answer> {
        try reply(.movie(input.movieCode, refresh: input.refresh)).map(Answer.init(movie:))
    }

    /// The kept text for the body.
    package func result(_ answer: Answer) -> RPCResult {
        let movie = answer.movie.value
        return result(body: answer.movie.body, source: movie.source) { ModelEncoding.movie(movie) }
    }
}
