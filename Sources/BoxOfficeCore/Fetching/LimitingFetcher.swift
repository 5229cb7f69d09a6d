/// Bounds the upstream calls in flight per service (`include` fans out up to 20 calls per box office, and several
/// requests may fan out at once; `people.detail` with `include` one per film). The worker's width, 20, lets one wave
/// cover a page of ten entries and a filmography of twenty films.
package struct LimitingFetcher: Fetcher {
    private let inner: any Fetcher
    private let kobis: AsyncLimiter
    private let kakao: AsyncLimiter

    package init(_ inner: any Fetcher, perService width: Int = 20) {
        self.inner = inner
        kobis = AsyncLimiter(width: width)
        kakao = AsyncLimiter(width: width)
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let limiter = call.service == .kobis ? kobis : kakao
        do {
            try await limiter.acquire()
        } catch {
            throw BoxOfficeError(
                .upstreamUnavailable, "cancelled while waiting for a free \(call.service.rawValue) connection",
                service: call.service)
        }
        defer { limiter.release() }
        return try await inner.fetch(call)
    }
}
