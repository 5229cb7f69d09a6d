import Foundation
import ProcessTestSupport
import TestSupport

/// A fake KOBIS + Kakao serving the project's own recorded bodies (`Fixtures/upstream/`) by endpoint and
/// parameters, with faults on chosen dates and titles. KOBIS lives under `/kobis`, Kakao under `/kakao`.
///
/// It needs nothing from `../shared`, so the live path, its faults, the cache and the fan-out are tested in a
/// fresh clone too.
final class RecordedUpstream: @unchecked Sendable {
    // @unchecked: `counts` is guarded by `lock`.
    static let kobisKey = "test-kobis-key-0a1b2c3d4e5f"
    static let kakaoKey = "test-kakao-key-9z8y7x6w5v"

    /// A movie of the 2022-01-05 box office whose details KOBIS answers with an empty `movieInfo` (for a fan-out
    /// with a failing part).
    static let movieWithoutDetails = "20100312"

    /// The faults, by KOBIS `targetDt`.
    enum Fault: String, CaseIterable {
        case error500ThenOK = "20230101"
        case unavailable503 = "20230102"
        case reset = "20230103"
        case slow = "20230104"
        case truncated = "20230105"
        case html = "20230106"
        case badKey = "20230107"
        case quota = "20230108"
        case empty = "20230109"
        case cutJSON = "20230110"
        /// A correct answer after 300 ms (for concurrent identical calls).
        case slowOK = "20230111"
    }

    let server: FakeUpstream
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    init() throws {
        let box = Box()
        server = try FakeUpstream { request in box.upstream?.reply(request) ?? .reset }
        box.upstream = self
    }

    private final class Box: @unchecked Sendable {
        weak var upstream: RecordedUpstream?
    }

    var environment: [String: String] {
        [
            "KOBIS_API_KEY": Self.kobisKey, "KAKAO_REST_API_KEY": Self.kakaoKey,
            "KOBIS_BASE_URL": server.baseURL + "/kobis", "KAKAO_BASE_URL": server.baseURL + "/kakao",
        ]
    }

    /// Requests received for a daily `targetDt`.
    func dailyRequests(_ date: String) -> Int {
        server.requests.filter { $0.path.hasSuffix("searchDailyBoxOfficeList.json") && $0.query["targetDt"] == date }
            .count
    }

    private func nextCount(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        counts[key, default: 0] += 1
        return counts[key]!
    }

    /// The project's recordings, as the offline mode serves them.
    static let fixtures = SharedData.repositoryRoot.appending(path: "Fixtures/upstream")

    private func recorded(_ name: String) -> FakeUpstream.Reply {
        guard let data = try? Data(contentsOf: Self.fixtures.appending(path: name)) else {
            return .json(#"{"faultInfo":{"message":"no such recorded body","errorCode":"999999"}}"#)
        }
        return .respond(status: 200, body: [UInt8](data))
    }

    /// The bytes `/images/poster.jpg` serves: not a real JPEG, only its first bytes; the worker checks the type the
    /// server declares, not the content.
    static let posterBytes: [UInt8] =
        [0xFF, 0xD8, 0xFF, 0xE0] + Array("boxoffice-worker test poster".utf8) + [0xFF, 0xD9]

    func reply(_ request: FakeUpstream.Request) -> FakeUpstream.Reply {
        if request.path.hasPrefix("/kakao/") { return kakao(request) }
        if request.path.hasPrefix("/images/") { return image(request.path) }
        guard request.query["key"] == Self.kobisKey else {
            return .json(#"{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}"#)
        }
        switch request.path {
        case "/kobis/boxoffice/searchDailyBoxOfficeList.json":
            let date = request.query["targetDt"] ?? ""
            switch Fault(rawValue: date) {
            case .error500ThenOK?:
                return nextCount(date) == 1 ? .json("{}", status: 500) : recorded("kobis/daily-20220105.json")
            case .unavailable503?: return .json("{}", status: 503)
            case .reset?: return .reset
            case .slow?: return .json("{}", delay: 3)
            case .truncated?:
                return .truncated(body: Array(#"{"boxOfficeResult":{"boxofficeType":"#.utf8), declared: 4000)
            case .html?:
                return .respond(
                    status: 200, contentType: "text/html", body: Array("<html><body>점검 중</body></html>".utf8))
            case .badKey?: return .json(#"{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}"#)
            case .quota?: return .json(#"{"faultInfo":{"message":"일일 사용량을 초과했습니다.","errorCode":"320011"}}"#)
            case .empty?:
                return .json(
                    #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20230109~20230109","dailyBoxOfficeList":[]}}"#
                )
            case .cutJSON?: return .json(#"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"#)
            case .slowOK?:
                guard case .respond(let status, let type, let body, _) = recorded("kobis/daily-20220105.json") else {
                    return .reset
                }
                return .respond(status: status, contentType: type, body: body, delay: 0.3)
            case nil: return recorded("kobis/daily-\(date).json")
            }
        case "/kobis/boxoffice/searchWeeklyBoxOfficeList.json":
            return recorded("kobis/weekly-1-20120101.json")
        case "/kobis/movie/searchMovieInfo.json":
            let code = request.query["movieCd"] ?? ""
            let file = Self.fixtures.appending(path: "kobis/movie-\(code).json")
            if code != Self.movieWithoutDetails, FileManager.default.fileExists(atPath: file.path()) {
                return recorded("kobis/movie-\(code).json")
            }
            return .json(#"{"movieInfoResult":{"movieInfo":{},"source":"영화진흥위원회"}}"#)
        case "/kobis/movie/searchMovieList.json":
            return recorded("kobis/search-1.json")
        default:
            return .json("not found", status: 404)
        }
    }

    private func kakao(_ request: FakeUpstream.Request) -> FakeUpstream.Reply {
        guard request.headers["authorization"] == "KakaoAK \(Self.kakaoKey)" else {
            return .json(#"{"errorType":"AccessDeniedError","message":"cannot find appkey"}"#, status: 401)
        }
        let query = request.query["query"] ?? ""
        // "다운로드 <file>": a poster whose image is served by this server, for download tests.
        if query.hasPrefix("다운로드 ") {
            let file = query.dropFirst(5).split(separator: " ").first.map(String.init) ?? "poster.jpg"
            return .json(
                #"{"documents":[{"collection":"blog","datetime":"2023-01-01T00:00:00.000+09:00","display_sitename":"test","doc_url":"http://127.0.0.1/doc","height":600,"image_url":"\#(server.baseURL)/images/\#(file)","thumbnail_url":"\#(server.baseURL)/images/thumb.jpg","width":400}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
            )
        }
        if query.hasPrefix("한도") { return .json(#"{"code":-10,"msg":"API limit has been exceeded."}"#, status: 400) }
        if query.hasPrefix("없는") { return recorded("kakao/poster-none.json") }
        return recorded("kakao/poster-1.json")
    }

    /// Images for download tests: a poster, one behind a redirect, an HTML page, and one over the 10 MB limit.
    private func image(_ path: String) -> FakeUpstream.Reply {
        switch path {
        case "/images/poster.jpg": .respond(status: 200, contentType: "image/jpeg", body: Self.posterBytes)
        case "/images/moved.png": .redirect(location: server.baseURL + "/images/poster.jpg")
        case "/images/page.jpg":
            .respond(status: 200, contentType: "text/html; charset=utf-8", body: Array("<html></html>".utf8))
        case "/images/huge.jpg":
            .respond(status: 200, contentType: "image/jpeg", body: [UInt8](repeating: 0xAB, count: (10 << 20) + 1))
        default: .json("not found", status: 404)
        }
    }
}
