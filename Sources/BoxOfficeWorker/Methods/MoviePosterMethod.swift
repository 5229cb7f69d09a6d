import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.poster`: the first Kakao image for "<title> 영화 포스터", by title or by movie code; with `download: true`
/// the image itself, saved in the cache directory (no hit: nothing to download, `found: false` as usual).
struct MoviePosterMethod: DomainMethod {
    static let methodName = "movie.poster"
    let summary = "A movie's poster: the first Kakao image search result for \"<title> 영화 포스터\"."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    func start(_ context: RequestContext) throws -> RPCReply {
        .later { [self] in try await answer(context) }
    }

    private func answer(_ context: RequestContext) async throws -> JSONValue {
        let params = Params(context)
        let download = params.bool("download") == true
        if download, let refusal = runtime.downloadRefusal { throw refusal.rpcError }
        let poster = try await answering { () async throws(BoxOfficeError) in
            try await service.poster(
                title: params.string("title"), movieCode: params.string("movieCode"), refresh: params.refresh)
        }
        guard download, let image = poster.image else { return ModelEncoding.poster(poster) }
        let file = try await answering { () async throws(BoxOfficeError) in
            try await runtime.download(image.url, refresh: params.refresh)
        }
        return ModelEncoding.poster(poster, file: file)
    }
}
