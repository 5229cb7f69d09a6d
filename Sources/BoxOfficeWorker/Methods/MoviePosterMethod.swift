import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.poster`: the first Kakao image for "<title> 영화 포스터", by title or by movie code; with `download: true`
/// the image itself, saved in the cache directory (no hit: nothing to download, `found: false` as usual).
struct MoviePosterMethod: DomainMethod, TypedMethod {
    static let methodName = "movie.poster"
    let summary = "A movie's poster: the first Kakao image search result for \"<title> 영화 포스터\"."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    /// A title or a movie code (the schema asks for one of them).
    struct Input: MethodInput, Hashable {
        var title: String?
        var movieCode: String?
        /// Save the image in the cache directory.
        var download = false
        var refresh = false

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("title", title)
            params.set("movieCode", movieCode)
            params.set("download", flag: download)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    /// The image found (or not), and the file it was saved to with `download`.
    struct Output: Sendable {
        let poster: PosterSearch
        let file: PosterFile?
    }

    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output> {
        if input.download, let refusal = runtime.downloadRefusal { throw refusal.rpcError }
        return .work { [service, runtime] in
            let poster = try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.poster(title: input.title, movieCode: input.movieCode, refresh: input.refresh)
            }
            guard input.download, let image = poster.image else { return Output(poster: poster, file: nil) }
            let file = try await withWireErrors { () async throws(BoxOfficeError) in
                try await runtime.downloadForAnswer(image.url, refresh: input.refresh)
            }
            return Output(poster: poster, file: file)
        }
    }

    func result(_ output: Output) -> RPCResult {
        .value(ModelEncoding.poster(output.poster, file: output.file))
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension MoviePosterMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(
            title: params.string("title"), movieCode: params.string("movieCode"),
            download: params.bool("download") == true, refresh: params.bool("refresh") == true)
    }
}
