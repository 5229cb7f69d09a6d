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
        /// Also write the result as messages to post (the result's `chat` member).
        var chat: ChatFormat?

        /// What was searched for, as a message's heading says it.
        var query: String {
            [title, director.map { "director \($0)" }].compactMap { $0 }.joined(separator: " · ")
        }

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("title", title)
            params.set("director", director)
            params.set("year", year)
            params.set("page", page, default: 1)
            params.set("limit", limit, default: 10)
            params.set("chat", chat?.rawValue)
            return params.object
        }
    }

    /// A page of results, and the chat format asked for with what was searched for.
    struct Answer: Sendable {
        let search: MovieSearch
        var chat: ChatFormat?
        var query = ""
    }

    func start(_ input: Input, in context: RequestContext) -> Reply<Answer> {
        .work { [service] in
            let search = try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.search(
                    title: input.title, director: input.director, year: input.year, page: input.page,
                    limit: input.limit)
            }
            return Answer(search: search, chat: input.chat, query: input.query)
        }
    }

    func result(_ answer: Answer) -> RPCResult {
        let encoded = ModelEncoding.search(answer.search)
        guard let chat = answer.chat else { return .value(encoded) }
        return .value(ChatEncoding.adding(chat, ChatContent(answer.search, query: answer.query), to: encoded))
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension MovieSearchMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(
            title: params.string("title"), director: params.string("director"), year: params.int("year"),
            page: params.int("page") ?? 1, limit: params.int("limit") ?? 10,
            chat: params.string("chat").flatMap(ChatFormat.init(rawValue:)))
    }
}
