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
        /// Also write the result as messages to post (the result's `chat` member).
        var chat: ChatFormat?

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("movieCode", movieCode)
            params.set("refresh", flag: refresh)
            params.set("chat", chat?.rawValue)
            return params.object
        }
    }

    /// The movie, with the serial of the body it was made from, and the chat format asked for.
    struct Answer: Sendable {
        let movie: Kept<Movie>
        var chat: ChatFormat?
    }

    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Answer> {
        try reply(.movie(input.movieCode, refresh: input.refresh)).map { [chat = input.chat] movie in
            Answer(movie: movie, chat: chat)
        }
    }

    /// The kept text for the body; with a chat format, the result built with its messages.
    func result(_ answer: Answer) -> RPCResult {
        let movie = answer.movie.value
        if let chat = answer.chat {
            return .value(ChatEncoding.adding(chat, ChatContent(movie), to: ModelEncoding.movie(movie)))
        }
        return result(body: answer.movie.body, source: movie.source) { ModelEncoding.movie(movie) }
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension MovieDetailMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(
            movieCode: params.string("movieCode") ?? "", refresh: params.bool("refresh") == true,
            chat: params.string("chat").flatMap(ChatFormat.init(rawValue:)))
    }
}
