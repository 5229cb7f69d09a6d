import BoxOfficeCore
import Testing

@Suite("Bodies the worker cannot read")
struct MalformedTests {
    let source = Source(origin: .kobis, fetchedAt: "2026-11-21T00:00:00Z")

    func malformedPath(_ text: String) -> String? {
        do {
            _ = try KOBISDecoder.dailyBoxOffice(Array(text.utf8), source: source)
            return "decoded"
        } catch {
            return error.reason == .upstreamMalformed ? error.path : "reason \(error.reason)"
        }
    }

    static let entry =
        #"{"rnum":"1","rank":"1","rankInten":"0","rankOldAndNew":"OLD","movieCd":"1","movieNm":"a","openDt":"","salesAmt":"1","salesShare":"1.0","salesInten":"0","salesChange":"0","salesAcc":"1","audiCnt":"X","audiInten":"0","audiChange":"0","audiAcc":"1","scrnCnt":"1","showCnt":"1"}"#

    @Test("HTML, truncated JSON, a wrong shape and a bad field each name where it broke")
    func paths() {
        #expect(malformedPath("<html><body>502 Bad Gateway</body></html>") == "")
        #expect(malformedPath(#"{"boxOfficeResult":{"boxofficeType":"일별"#) == "")
        #expect(malformedPath(#"{"something":"else"}"#) == "/boxOfficeResult")
        #expect(
            malformedPath(#"{"boxOfficeResult":{"boxofficeType":"x","showRange":"20220105","dailyBoxOfficeList":[]}}"#)
                == "/boxOfficeResult/showRange")
        #expect(
            malformedPath(
                #"{"boxOfficeResult":{"boxofficeType":"x","showRange":"20220105~20220105","dailyBoxOfficeList":[\#(Self.entry)]}}"#
            ) == "/boxOfficeResult/dailyBoxOfficeList/0/audiCnt")
    }

    @Test("an empty box office list is a box office with no entries")
    func empty() throws {
        let office = try KOBISDecoder.dailyBoxOffice(
            Array(
                #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20991231~20991231","dailyBoxOfficeList":[]}}"#
                    .utf8), source: source)
        #expect(office.entries.isEmpty)
    }

    @Test("an unknown movie code is not_found")
    func unknownMovie() {
        for body in [
            #"{"movieInfoResult":{"movieInfo":{},"source":"영화진흥위원회"}}"#, #"{"movieInfoResult":{"source":"영화진흥위원회"}}"#,
        ] {
            do {
                _ = try KOBISDecoder.movieInfo(Array(body.utf8), movieCode: "99999999", source: source)
                Issue.record("decoded")
            } catch {
                #expect(error.reason == .notFound && error.movieCode == "99999999")
            }
        }
    }
}
