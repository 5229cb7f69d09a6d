package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `movie.poster`: the first Kakao image for "<title> 영화 포스터", by title or by movie code; with `download: true`
/// the image itself, saved in the cache directory (no hit: nothing to download, `found: false` as usual).
package struct MoviePosterMethod: DomainMethod, TypedMethod {
    package static let methodName = "movie.poster"
    package let summary = "A movie's poster: the first Kakao image search result for \"<title> 영화 포스터\"."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// A title or a movie code (the schema asks for one of them).
    package struct Input: MethodInput, Hashable {
        package var title: String?
        package var movieCode: String?
        /// Save the image in the cache directory.
        package var download = false
        package var refresh = false

        package init(title: String? = nil, movieCode: String? = nil, download: Bool = false, refresh: Bool = false) {
            self.title = title
            self.movieCode = movieCode
            self.download = download
            self.refresh = refresh
        }

        package static let fields: [InputField<Self>] = [
            .text("title", \.title), .text("movieCode", \.movieCode), .flag("download", \.download),
            .flag("refresh", \.refresh),
        ]
        package static let blank = Self()
    }

    /// The image found (or not), and the file it was saved to with `download`.
    package struct Output: Sendable {
        package let poster: PosterSearch
        package let file: PosterFile?
    }

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output> {
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

    package func result(_ output: Output) -> RPCResult {
        .value(ModelEncoding.poster(output.poster, file: output.file))
    }
}
