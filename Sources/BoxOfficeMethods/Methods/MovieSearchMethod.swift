package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `movie.search`: KOBIS movies by title and/or director, a page at a time.
package struct MovieSearchMethod: DomainMethod, TypedMethod {
    package static let methodName = "movie.search"
    package let summary =
        "Searches KOBIS movies by title and/or director (optionally a production year), a page at a time."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// A title and/or a director (the schema asks for one of them), a production year, a page.
    package struct Input: MethodInput, Hashable {
        package var title: String?
        package var director: String?
        package var year: Int?
        package var page = 1
        package var limit = 10

        package init(title: String? = nil, director: String? = nil, year: Int? = nil, page: Int = 1, limit: Int = 10) {
            (self.title, self.director, self.year, self.page, self.limit) = (title, director, year, page, limit)
        }

        /// What was searched for, as a message's heading says it.
        package var query: String {
            [title, director.map { "director \($0)" }].compactMap { $0 }.joined(separator: " · ")
        }

        package static let fields: [InputField<Self>] = [
            .text("title", \.title), .text("director", \.director), .int("year", \.year),
            .int("page", \.page, default: 1), .int("limit", \.limit, default: 10),
        ]
        package static let blank = Self()
    }

    /// A page of results, and what was searched for (a presentation's heading says it).
    package struct Answer: Sendable {
        package let search: MovieSearch
        package var query: String

        package init(search: MovieSearch, query: String = "") {
            (self.search, self.query) = (search, query)
        }
    }

    package func start(_ input: Input, in context: RequestContext) -> Reply<Answer> {
        .work { [service] in
            let search = try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.search(
                    title: input.title, director: input.director, year: input.year, page: input.page,
                    limit: input.limit)
            }
            return Answer(search: search, query: input.query)
        }
    }

    package func result(_ answer: Answer) -> RPCResult {
        .value(ModelEncoding.search(answer.search))
    }
}
