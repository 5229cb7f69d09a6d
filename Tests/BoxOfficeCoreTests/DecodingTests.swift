import BoxOfficeCore
import Foundation
import TestSupport
import Testing

@Suite(
    "Decoding the recorded KOBIS and Kakao bodies",
    .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
struct DecodingTests {
    @Test("every daily box office decodes into ten ranked entries", arguments: RecordedBodies.names(prefix: "daily-"))
    func daily(name: String) throws {
        let office = try KOBISDecoder.dailyBoxOffice(try RecordedBodies.body(name), source: RecordedBodies.source)
        #expect(office.kind == .daily)
        #expect(office.label == "일별 박스오피스")
        #expect(office.start == office.end)
        #expect(office.entries.count == 10)
        #expect(office.entries.map(\.rank) == Array(1...10))
        #expect(
            office.entries.allSatisfy {
                $0.title == $0.title.trimmingCharacters(in: .whitespaces) && !$0.movieCode.isEmpty
            })
    }

    @Test("daily-20230426: NEW, up, down, a blank openDt, amounts beyond 2^31, rates with and without decimals")
    func dailyQuirks() throws {
        let office = try KOBISDecoder.dailyBoxOffice(
            try RecordedBodies.body("daily-20230426.json"), source: RecordedBodies.source)
        #expect(office.start.description == "2023-04-26")
        let first = office.entries[0]
        #expect(first.trend == .new)
        #expect(first.display.rankChange == "신작")
        #expect(first.audience.changeRate == 100)
        let mario = office.entries[1]
        #expect(mario.rankChange == 12 && mario.trend == .up && mario.display.rankChange == "▲12")
        #expect(mario.sales.changeRate == 7183.1 && mario.audience.changeRate == 14273.4)
        let wick = office.entries[2]
        #expect(wick.trend == .down && wick.display.rankChange == "▼2")
        #expect(wick.sales.total == 14_033_817_474)
        #expect(office.entries[5].sales.changeRate == -49.5 && office.entries[5].audience.changeRate == -40.2)
        let odyssey = office.entries[9]
        #expect(odyssey.title == "2001 스페이스 오디세이")
        #expect(odyssey.openDate == nil)
        #expect(first.openDate?.description == "2023-04-26")
    }

    @Test("daily-20220105: the canonical sample, with display strings")
    func canonical() throws {
        let office = try KOBISDecoder.dailyBoxOffice(
            try RecordedBodies.body("daily-20220105.json"), source: RecordedBodies.source)
        let first = office.entries[0]
        #expect(first.title == "경관의 피" && first.movieCode == "20199882")
        let display = first.display
        #expect(display.rank == "1" && display.rankChange == "신작")
        #expect(display.audience == "64,050" && display.audienceTotal == "69,228" && display.sales == "584,559,330")
        #expect(first.salesShare == 34.2 && first.screens == 1171 && first.shows == 4416)
    }

    @Test("the weekend box office: kind, label, range and yearWeekTime")
    func weekend() throws {
        let office = try KOBISDecoder.weeklyBoxOffice(
            try RecordedBodies.body("weekend-20111230-20120101.json"), period: .weekend, source: RecordedBodies.source)
        #expect(office.kind == .weekend)
        #expect(office.label == "주말 박스오피스")
        #expect(office.start.description == "2011-12-30" && office.end.description == "2012-01-01")
        #expect(office.yearWeek == "201152")
        #expect(office.entries.count == 10)
        #expect(office.entries[0].sales.change == -1_706_758_500)
    }

    @Test("every movie info decodes", arguments: RecordedBodies.names(prefix: "movieinfo-"))
    func movieInfo(name: String) throws {
        let code = String(name.dropFirst("movieinfo-".count).prefix(8))
        let movie = try KOBISDecoder.movieInfo(
            try RecordedBodies.body(name), movieCode: code, source: RecordedBodies.source)
        #expect(movie.movieCode == code)
        #expect(!movie.title.isEmpty)
        #expect(movie.watchGrade == movie.ratings.last?.grade)
    }

    @Test(
        "movie info quirks: re-rated, unrated, blank runtime, alphanumeric code, no directors, missing source, YYYYMMDD dates"
    )
    func movieQuirks() throws {
        func movie(_ name: String, _ code: String) throws -> Movie {
            try KOBISDecoder.movieInfo(try RecordedBodies.body(name), movieCode: code, source: RecordedBodies.source)
        }
        let winter = try movie("movieinfo-20061242.json", "20061242")
        #expect(winter.ratings.count == 2)
        #expect(winter.ratings[1].number == "2022-MF03302")  // trailing space trimmed
        #expect(winter.watchGrade == "전체관람가")
        let rieu = try movie("movieinfo-20233933.json", "20233933")
        #expect(rieu.ratings.isEmpty && rieu.watchGrade == nil && rieu.actors.isEmpty)
        #expect(rieu.titleEnglish == nil && rieu.status == "기타")
        #expect(rieu.openDate?.description == "2023-09-12")
        #expect(try movie("movieinfo-20212667.json", "20212667").runtimeMinutes == nil)
        let hell = try movie("movieinfo-2023C625.json", "2023C625")
        #expect(hell.movieCode == "2023C625" && hell.type == "온라인전용")
        #expect(try movie("movieinfo-20227890.json", "20227890").directors.isEmpty)
        let rewrapped = try movie("movieinfo-20192354-rewrapped.json", "20192354")
        #expect(rewrapped.title == "특송")
        let gwanghae = try movie("movieinfo-20124079.json", "20124079")
        #expect(gwanghae.productionYear == 2012 && gwanghae.runtimeMinutes == 131)
        #expect(gwanghae.openDate?.description == "2012-09-13")
        #expect(gwanghae.staffs.count == 345 && gwanghae.companies.count == 14 && gwanghae.actors.count == 36)
        #expect(gwanghae.genres == ["사극", "드라마"] && gwanghae.nations == ["한국"])
    }

    @Test("movie lists: totals, alphanumeric codes, empty openDt, comma-joined genres")
    func movieList() throws {
        let search = try KOBISDecoder.movieList(
            Fetched(
                body: try RecordedBodies.body("movielist-query-beomjoewaui-jeonjaeng.json"),
                source: RecordedBodies.source), page: 1)
        #expect(search.total == 5)
        let first = try #require(search.movies.first)
        #expect(first.movieCode == "2023C168" && first.openDate == nil && first.directors.isEmpty)
        let second = search.movies[1]
        #expect(
            second.genres == ["범죄", "드라마"] && second.directors == ["윤종빈"]
                && second.openDate?.description == "2012-02-02")
        #expect(
            try KOBISDecoder.movieList(
                Fetched(body: try RecordedBodies.body("movielist-default.json"), source: RecordedBodies.source), page: 1
            ).total == 76512)
    }

    @Test(
        "KOBIS faultInfo (HTTP 200) becomes upstream_rejected with the code",
        arguments: [
            ("error-320010-invalid-key.json", "320010"), ("error-320102-missing-targetDt.json", "320102"),
            ("error-320103-bad-date-format.json", "320103"),
        ])
    func faults(name: String, code: String) throws {
        do {
            _ = try KOBISDecoder.dailyBoxOffice(try RecordedBodies.body(name), source: RecordedBodies.source)
            Issue.record("a fault decoded")
        } catch let error as BoxOfficeError {
            #expect(error.reason == .upstreamRejected && error.upstreamCode == code && error.service == .kobis)
            #expect(error.upstreamMessage?.isEmpty == false)
        }
    }

    @Test("320011 is the quota")
    func quota() {
        let body = Array(#"{"faultInfo":{"message":"일일 사용량 초과","errorCode":"320011"}}"#.utf8)
        #expect(throws: BoxOfficeError.self) { try KOBISDecoder.dailyBoxOffice(body, source: RecordedBodies.source) }
        do {
            _ = try KOBISDecoder.dailyBoxOffice(body, source: RecordedBodies.source)
        } catch {
            #expect(error.reason == .quotaExhausted)
        }
    }

    @Test(
        "a KOBIS answer naming 320011 becomes quota_exhausted at the quota fetcher; the byte search finds it anywhere")
    func quotaFaultSearch() {
        let fault = Array(#"{"faultInfo":{"message":"일일 사용량 초과","errorCode":"320011"}}"#.utf8)
        #expect(throws: BoxOfficeError.self) {
            try QuotaFetcher.quotaFault(in: Fetched(body: fault, source: RecordedBodies.source))
        }
        let code = Array(#""320011""#.utf8)
        #expect(ByteSearch.contains(code, in: code))
        #expect(ByteSearch.contains(code, in: Array(#"x"320011""#.utf8)))
        #expect(ByteSearch.contains(code, in: Array(#""320011"x"#.utf8)))
        #expect(!ByteSearch.contains(code, in: Array(#""32001"#.utf8)))
        #expect(!ByteSearch.contains(code, in: Array(#""3200111"320011"#.utf8)))
        #expect(!ByteSearch.contains(code, in: []))
        let answer = Array(#"{"boxOfficeResult":{"audiCnt":"320011"}}"#.utf8)
        #expect(ByteSearch.contains(code, in: answer))
    }

    @Test("Kakao image search: the first document, an empty result, error bodies")
    func kakao() throws {
        let poster = try KakaoDecoder.imageSearch(
            Fetched(body: try RecordedBodies.body("kakao-image-gwanghae-10docs.json"), source: RecordedBodies.source),
            query: "광해, 왕이 된 남자 영화 포스터")
        let image = try #require(poster.image)
        #expect(image.url.hasPrefix("http") && image.width == 710 && image.height == 490 && image.collection == "news")
        #expect(image.postedAt == "2019-01-03T15:36:01.000+09:00")
        #expect(
            try KakaoDecoder.imageSearch(
                Fetched(body: try RecordedBodies.body("kakao-image-empty-result.json"), source: RecordedBodies.source),
                query: "x"
            ).image
                == nil)
        #expect(
            try KakaoDecoder.imageSearch(
                Fetched(body: try RecordedBodies.body("kakao-image-yagom-80docs.json"), source: RecordedBodies.source),
                query: "x"
            ).image
                != nil)
        for (name, type) in [
            ("kakao-error-401-AccessDeniedError.json", "AccessDeniedError"),
            ("kakao-error-400-MissingParameter.json", "MissingParameter"),
            ("kakao-error-InvalidArgument-page.json", "InvalidArgument"),
        ] {
            let error = KakaoDecoder.errorBody(try RecordedBodies.body(name), status: 400)
            #expect(error?.reason == .upstreamRejected && error?.upstreamCode == type, "\(name)")
        }
        #expect(
            KakaoDecoder.errorBody(Array(#"{"code":-10,"msg":"API limit has been exceeded."}"#.utf8), status: 400)?
                .reason == .quotaExhausted)
    }
}
