import Testing

@testable import BoxOfficeCore

/// The kept box office calls: the same call as one built afresh, with each request's own `refresh`.
@Suite("Box office calls")
struct BoxOfficeCallsTests {
    static let day = CalendarDate(year: 2022, month: 1, day: 5)!

    @Test("a kept call is the call built from the same day, period and filters; refresh is the request's")
    func keptCall() {
        let calls = BoxOfficeCalls()
        let filters = BoxOfficeService.Filters(multiMovie: true, nation: .korean, area: "0105001")
        let key = BoxOfficeCalls.Key(target: Self.day, period: nil, filters: filters)
        let first = calls.call(key, refresh: false)
        let again = calls.call(key, refresh: true)
        #expect(first.key == again.key && !first.refresh && again.refresh)
        #expect(
            first.key
                == "kobis /boxoffice/searchDailyBoxOfficeList.json itemPerPage=10&multiMovieYn=Y&repNationCd=K&targetDt=20220105&wideAreaCd=0105001"
        )
        let weekly = calls.call(BoxOfficeCalls.Key(target: Self.day, period: .week, filters: .init()), refresh: false)
        #expect(
            weekly.key == "kobis /boxoffice/searchWeeklyBoxOfficeList.json itemPerPage=10&targetDt=20220105&weekGb=0")
    }
}
