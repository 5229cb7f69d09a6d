import JSONCore

/// Kakao image search bodies: the first document becomes the poster.
package enum KakaoDecoder {
    package static func imageSearch(_ fetched: Fetched, query: String) throws(BoxOfficeError) -> PosterSearch {
        let root = try UpstreamReader.read(.kakao, fetched)
        try checkError(root, status: nil)
        let documents = try root.member("documents").elements()
        guard let first = documents.first else { return PosterSearch(query: query, image: nil) }
        return PosterSearch(
            query: query,
            image: PosterSearch.Image(
                url: try first.string("image_url"),
                thumbnailUrl: try first.string("thumbnail_url"),
                width: try first.int("width"),
                height: try first.int("height"),
                site: try first.optionalString("display_sitename"),
                documentUrl: try first.optionalString("doc_url"),
                collection: try first.optionalString("collection"),
                postedAt: try first.optionalString("datetime")
            ))
    }

    /// Kakao's two error shapes: `{errorType, message}` from the search API, `{code, msg}` from the platform
    /// (`-10`: the app's quota is used up).
    static func checkError(_ root: UpstreamReader, status: Int?) throws(BoxOfficeError) {
        if let type = try? root.member("errorType").string() {
            let message = try? root.member("message").string()
            var error = BoxOfficeError(
                .upstreamRejected, "Kakao rejected the request: \(type): \(message ?? "no message")", service: .kakao)
            error.upstreamCode = type
            error.upstreamMessage = message
            error.status = status
            throw error
        }
        if let code = try? root.member("code").int64(), code < 0 {
            let message = try? root.member("msg").string()
            var error =
                code == -10
                ? BoxOfficeError(
                    .quotaExhausted, "Kakao says the app's image search quota is used up (-10)", service: .kakao)
                : BoxOfficeError(
                    .upstreamRejected, "Kakao rejected the request: \(message ?? "no message") (\(code))",
                    service: .kakao)
            error.upstreamCode = String(code)
            error.upstreamMessage = message
            error.status = status
            throw error
        }
    }

    /// Reads an error body of a non-2xx answer, if it is one of Kakao's shapes.
    package static func errorBody(_ body: [UInt8], status: Int) -> BoxOfficeError? {
        guard let root = try? UpstreamReader.parse(.kakao, body) else { return nil }
        do {
            try checkError(root, status: status)
            return nil
        } catch {
            return error
        }
    }
}
