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

    /// A movie code whose KOBIS error echoes the key.
    static let movieEchoingKey = "99999998"

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
        /// A body that parses but cannot be decoded (`rankInten: "NaN"`) the first time, the recording after.
        case nanOnce = "20230112"
        /// The head and the start of the body, then nothing.
        case stalled = "20230113"
        /// HTTP 429 asking to wait 1 s the first time, the recording after.
        case retryAfterShort = "20230114"
        /// HTTP 503 asking to wait an hour, always.
        case retryAfterLong = "20230115"
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
            // Its images live on this loopback server: downloads from it are allowed (SecurityTests turn it off).
            "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
        ]
    }

    /// ``environment`` with the cache in `cache`.
    func environment(cache: String) -> [String: String] {
        environment.merging(["BOXOFFICE_CACHE_DIR": cache]) { $1 }
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

    /// The recorded body `name`, or `otherwise` (what KOBIS answers for an unknown code) when there is none.
    private func recordedOr(_ name: String, _ otherwise: String) -> FakeUpstream.Reply {
        FileManager.default.fileExists(atPath: Self.fixtures.appending(path: name).path())
            ? recorded(name) : .json(otherwise)
    }

    /// A person with twenty films, each a movie whose detail is recorded (for `include: ["movies"]`).
    static let prolificPerson = "20990001"

    /// The twenty films: every recorded movie detail but the one answered empty, the first twenty by code.
    static let prolificFilms: [String] = {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: fixtures.appending(path: "kobis").path())) ?? []
        return names.filter { $0.hasPrefix("movie-") }.map { String($0.dropFirst(6).dropLast(5)) }
            .filter { $0 != movieWithoutDetails }.sorted().prefix(20).map { $0 }
    }()

    static let prolificPersonBody: String = {
        let films = prolificFilms.map { #"{"movieCd":"\#($0)","movieNm":"영화 \#($0)","moviePartNm":"감독"}"# }
        return
            #"{"peopleInfoResult":{"peopleInfo":{"peopleCd":"\#(prolificPerson)","peopleNm":"다작 감독","peopleNmEn":"","sex":"여자","repRoleNm":"감독","homepages":[],"filmos":[\#(films.joined(separator: ","))]},"source":"영화진흥위원회"}}"#
    }()

    /// A person with 45 films (codes 20980001…20980045, none with a detail here): past the most a request fetches.
    static let tooProlificPerson = "20990002"

    static let tooProlificPersonBody: String = {
        let films = (1...45).map { #"{"movieCd":"\#(20_980_000 + $0)","movieNm":"영화 \#($0)","moviePartNm":"배우"}"# }
        return
            #"{"peopleInfoResult":{"peopleInfo":{"peopleCd":"\#(tooProlificPerson)","peopleNm":"다작 배우","peopleNmEn":"","sex":"","repRoleNm":"배우","homepages":[],"filmos":[\#(films.joined(separator: ","))]},"source":"영화진흥위원회"}}"#
    }()

    /// How long the prolific person's films take to answer: long enough that two requests for them overlap.
    static let filmDelay = 0.3

    /// Requests received for `path` (below `/kobis`), optionally with one parameter's value.
    func kobisRequests(_ path: String, _ parameter: String? = nil, _ value: String? = nil) -> Int {
        server.requests.filter { request in
            request.path == "/kobis" + path && (parameter.map { request.query[$0] == value } ?? true)
        }.count
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
            case .nanOnce?:
                guard nextCount(date) > 1 else {
                    return .json(
                        #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20230112~20230112","dailyBoxOfficeList":[{"rnum":"1","rank":"1","rankInten":"NaN","rankOldAndNew":"OLD","movieCd":"20124079","movieNm":"광해","openDt":"2012-09-13","salesAmt":"1","salesShare":"1.0","salesInten":"0","salesChange":"0","salesAcc":"1","audiCnt":"1","audiInten":"0","audiChange":"0","audiAcc":"1","scrnCnt":"1","showCnt":"1"}]}}"#
                    )
                }
                return recorded("kobis/daily-20220105.json")
            case .retryAfterShort?:
                return nextCount(date) == 1
                    ? .retryAfter(status: 429, value: "1") : recorded("kobis/daily-20220105.json")
            case .retryAfterLong?:
                return .retryAfter(status: 503, value: "3600")
            case .stalled?:
                return .stalled(body: Array(#"{"boxOfficeResult":"#.utf8), declared: 4000)
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
            if code == Self.movieEchoingKey {
                // As KOBIS does for some bad parameters: the parameter's value, the key included, in the message.
                return .json(
                    #"{"faultInfo":{"message":"잘못된 요청입니다.[parameterName=key,parameterValue=\#(Self.kobisKey)]","errorCode":"320999"}}"#
                )
            }
            if Self.prolificFilms.contains(code),
                case .respond(let status, let type, let body, _) = recorded("kobis/movie-\(code).json")
            {
                return .respond(status: status, contentType: type, body: body, delay: Self.filmDelay)
            }
            let file = Self.fixtures.appending(path: "kobis/movie-\(code).json")
            if code != Self.movieWithoutDetails, FileManager.default.fileExists(atPath: file.path()) {
                return recorded("kobis/movie-\(code).json")
            }
            return .json(#"{"movieInfoResult":{"movieInfo":{},"source":"영화진흥위원회"}}"#)
        case "/kobis/movie/searchMovieList.json":
            return recorded("kobis/search-1.json")
        case "/kobis/people/searchPeopleInfo.json":
            let code = request.query["peopleCd"] ?? ""
            if code == Self.prolificPerson { return .json(Self.prolificPersonBody) }
            if code == Self.tooProlificPerson { return .json(Self.tooProlificPersonBody) }
            return recordedOr(
                "kobis/people-\(code).json", #"{"peopleInfoResult":{"peopleInfo":{},"source":"영화진흥위원회"}}"#)
        case "/kobis/people/searchPeopleList.json":
            return recorded("kobis/people-search-default.json")
        case "/kobis/company/searchCompanyInfo.json":
            let code = request.query["companyCd"] ?? ""
            return recordedOr(
                "kobis/company-\(code).json", #"{"companyInfoResult":{"companyInfo":{},"source":"영화진흥위원회"}}"#)
        case "/kobis/company/searchCompanyList.json":
            return recorded("kobis/company-search-default.json")
        case "/kobis/code/searchCodeList.json":
            return recorded("kobis/codes-\(request.query["comCode"] ?? "").json")
        default:
            return .json("not found", status: 404)
        }
    }

    private func kakao(_ request: FakeUpstream.Request) -> FakeUpstream.Reply {
        guard request.headers["authorization"] == "KakaoAK \(Self.kakaoKey)" else {
            return .json(#"{"errorType":"AccessDeniedError","message":"cannot find appkey"}"#, status: 401)
        }
        let query = request.query["query"] ?? ""
        // "키유출 …": a 401 whose message repeats the Authorization header.
        if query.hasPrefix("키유출") {
            return .json(
                #"{"errorType":"AccessDeniedError","message":"wrong appKey(KakaoAK \#(Self.kakaoKey)) format"}"#,
                status: 401)
        }
        // "이미지 <url> …": a poster whose image URL is <url> (for download destinations).
        if query.hasPrefix("이미지 ") {
            let url = query.dropFirst(4).split(separator: " ").first.map(String.init) ?? ""
            return .json(
                #"{"documents":[{"collection":"blog","datetime":"2023-01-01T00:00:00.000+09:00","display_sitename":"test","doc_url":"http://127.0.0.1/doc","height":600,"image_url":"\#(url)","thumbnail_url":"\#(url)","width":400}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
            )
        }
        // "딴곳 <url> …": the search itself redirects to <url>.
        if query.hasPrefix("딴곳 ") {
            return .redirect(location: query.dropFirst(3).split(separator: " ").first.map(String.init) ?? "")
        }
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
        case "/images/disguised.jpg":
            .respond(status: 200, contentType: "image/jpeg", body: Array("<html><script>alert(1)</script></html>".utf8))
        case "/images/script.svg":
            .respond(
                status: 200, contentType: "image/svg+xml",
                body: Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8))
        case "/images/long-type.gif":
            .respond(
                status: 200, contentType: "image/" + String(repeating: "x", count: 3000),
                body: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0])
        case "/images/page.jpg":
            .respond(status: 200, contentType: "text/html; charset=utf-8", body: Array("<html></html>".utf8))
        case "/images/huge.jpg":
            .respond(status: 200, contentType: "image/jpeg", body: [UInt8](repeating: 0xAB, count: (10 << 20) + 1))
        default: .json("not found", status: 404)
        }
    }
}
