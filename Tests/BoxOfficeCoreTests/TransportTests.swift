import Testing

@testable import BoxOfficeCore

@Suite("Transport rules")
struct TransportTests {
    @Test("redirects are followed only within the same origin (a key never changes scheme, host or port)")
    func redirects() {
        let from = "http://www.kobis.or.kr/kobisopenapi/webservice/rest/x.json?key=k"
        #expect(
            AsyncHTTPClientTransport.sameOriginTarget("/moved/x.json", from: from)
                == "http://www.kobis.or.kr/moved/x.json")
        #expect(AsyncHTTPClientTransport.sameOriginTarget("https://www.kobis.or.kr/y", from: from) == nil)
        #expect(AsyncHTTPClientTransport.sameOriginTarget("http://www.kobis.or.kr:8080/y", from: from) == nil)
        #expect(AsyncHTTPClientTransport.sameOriginTarget("http://evil.example/steal", from: from) == nil)
    }

    @Test("the KOBIS key goes last and never into the redacted URL; Kakao's goes into a header")
    func keys() {
        let call = UpstreamCall(
            service: .kobis, path: KOBISPaths.movieList, parameters: ["movieNm": "광해", "curPage": "1"])
        let kobis = LiveFetcher.request(
            call, endpoint: .init(baseURL: "http://h/rest/", key: nil, setting: "K"), key: "s3cret")
        #expect(kobis.url == "http://h/rest/movie/searchMovieList.json?curPage=1&movieNm=%EA%B4%91%ED%95%B4&key=s3cret")
        #expect(kobis.redactedURL.hasSuffix("&key=REDACTED") && !kobis.redactedURL.contains("s3cret"))
        let kakaoCall = UpstreamCall(service: .kakao, path: KakaoPaths.image, parameters: ["query": "a b"])
        let kakao = LiveFetcher.request(
            kakaoCall, endpoint: .init(baseURL: "https://dapi", key: nil, setting: "K"), key: "k4k40")
        #expect(kakao.url == "https://dapi/v2/search/image?query=a%20b" && kakao.headers.first?.1 == "KakaoAK k4k40")
        #expect(
            !call.key.contains("s3cret")
                && call.key == "kobis /movie/searchMovieList.json curPage=1&movieNm=%EA%B4%91%ED%95%B4")
    }

    @Test("backoff grows, has jitter and a cap")
    func backoff() {
        let policy = RetryPolicy(attempts: 3, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(300))
        #expect(policy.delay(after: 1, random: 1) == .milliseconds(100))
        #expect(policy.delay(after: 2, random: 1) == .milliseconds(200))
        #expect(policy.delay(after: 3, random: 1) == .milliseconds(300))
        #expect(policy.delay(after: 2, random: 0.5) == .milliseconds(100))
        #expect(policy.delay(after: 2, random: 0) == .zero)
    }
}
