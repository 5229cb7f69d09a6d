import BoxOfficeCore
import JSONCore
import JSONRPC

/// `movie.poster`: the first Kakao image for "<title> 영화 포스터", by title or by movie code.
struct MoviePosterMethod: DomainMethod {
    static let methodName = "movie.poster"
    let summary = "A movie's poster: the first Kakao image search result for \"<title> 영화 포스터\"."
    let base: DomainMethodBase

    func call(_ context: RequestContext) async throws -> JSONValue {
        let params = Params(context)
        if params.bool("download") == true {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["download"]), "download: true needs the poster cache, which this version of the worker does not have yet; omit it to get the image URL")
        }
        let poster = try await answering { () async throws(BoxOfficeError) in
            try await service.poster(title: params.string("title"), movieCode: params.string("movieCode"))
        }
        return ModelEncoding.poster(poster)
    }
}
