import BoxOfficeCore
import Testing

/// The freshness rules of architecture.md as pure decisions: the call, when its body was fetched (time and KST day),
/// and the current time are all given.
@Suite("Cache freshness rules")
struct FreshnessTests {
    static let hour: Double = 3600
    static let day: Double = 86_400
    /// 2026-11-21 00:00 KST = 2026-11-20 15:00 UTC, as seconds since 1970.
    static let midnightKST21: Double = 1_795_186_800

    func daily(_ date: String) -> UpstreamCall {
        UpstreamCall(service: .kobis, path: KOBISPaths.daily, parameters: ["targetDt": date, "itemPerPage": "10"])
    }

    func weekly(_ end: String, _ weekGb: String) -> UpstreamCall {
        UpstreamCall(
            service: .kobis, path: KOBISPaths.weekly,
            parameters: ["targetDt": end, "weekGb": weekGb, "itemPerPage": "10"])
    }

    let today = CalendarDate("2026-11-21")!

    @Test("the KST day of a fetch: 15:00 UTC is already the next day in Seoul")
    func kstEdge() {
        #expect(SeoulCalendar(secondsSince1970: Self.midnightKST21 - 1).today.description == "2026-11-20")
        #expect(SeoulCalendar(secondsSince1970: Self.midnightKST21).today.description == "2026-11-21")
    }

    @Test("a day two or more days before the fetch day is final: kept for good")
    func pastDaysFinal() {
        let fetched = Self.midnightKST21 + 10 * Self.hour
        for date in ["20261119", "20261101", "20220105"] {
            #expect(Freshness.expiry(of: daily(date), fetchedAt: fetched, fetchedDay: today) == nil, "\(date)")
            #expect(
                Freshness.isFresh(daily(date), fetchedAt: fetched, fetchedDay: today, now: fetched + 3650 * Self.day))
        }
    }

    @Test("an empty list is never final, however old its day: good for an hour, then fetched again")
    func emptyListNotFinal() {
        let fetched = Self.midnightKST21 + 10 * Self.hour
        let empty = Array(#"{"boxOfficeResult":{"boxofficeType":"일별","dailyBoxOfficeList":[]}}"#.utf8)
        let spaced = Array("{\"boxOfficeResult\":{\"weeklyBoxOfficeList\" : [ \n ]}}".utf8)
        let full = Array(#"{"boxOfficeResult":{"dailyBoxOfficeList":[{"rank":"1"}]}}"#.utf8)
        for body in [empty, spaced] {
            #expect(Freshness.expiry(of: daily("20220105"), fetchedAt: fetched, fetchedDay: today, body: body) != nil)
            #expect(
                Freshness.isFresh(
                    daily("20220105"), fetchedAt: fetched, fetchedDay: today, now: fetched + 60, body: body))
            #expect(
                !Freshness.isFresh(
                    daily("20220105"), fetchedAt: fetched, fetchedDay: today, now: fetched + Self.hour, body: body))
        }
        #expect(Freshness.expiry(of: daily("20220105"), fetchedAt: fetched, fetchedDay: today, body: full) == nil)
    }

    @Test("yesterday's box office is good for one hour, then fetched again")
    func yesterdayOneHour() {
        let fetched = Self.midnightKST21 + 10 * Self.hour
        let call = daily("20261120")
        #expect(Freshness.isFresh(call, fetchedAt: fetched, fetchedDay: today, now: fetched + Self.hour - 1))
        #expect(!Freshness.isFresh(call, fetchedAt: fetched, fetchedDay: today, now: fetched + Self.hour))
    }

    @Test("a body fetched while its day was still revisable stays revisable: an hour, even when read days later")
    func revisableStaysRevisable() {
        // Fetched on 2026-11-20 at 23:59 KST, when 2026-11-19 was yesterday; read a week later.
        let fetched = Self.midnightKST21 - 60
        let call = daily("20261119")
        let dayBefore = CalendarDate("2026-11-20")!
        #expect(Freshness.expiry(of: call, fetchedAt: fetched, fetchedDay: dayBefore) == fetched + Self.hour)
        #expect(!Freshness.isFresh(call, fetchedAt: fetched, fetchedDay: dayBefore, now: fetched + 7 * Self.day))
        // One minute later, at 00:00 KST on the 21st, the same date is final.
        #expect(Freshness.expiry(of: call, fetchedAt: Self.midnightKST21, fetchedDay: today) == nil)
    }

    @Test("a weekly period is final two days after its last day; before that, one hour")
    func weeks() {
        let fetched = Self.midnightKST21 + Self.hour
        // The weekend ending Sunday 2026-11-15: final from Tuesday the 17th.
        #expect(
            Freshness.expiry(of: weekly("20261115", "1"), fetchedAt: fetched, fetchedDay: CalendarDate("2026-11-17")!)
                == nil)
        #expect(
            Freshness.expiry(of: weekly("20261115", "1"), fetchedAt: fetched, fetchedDay: CalendarDate("2026-11-16")!)
                == fetched + Self.hour)
        // The weekdays ending Thursday 2026-11-19, fetched Saturday the 21st: final.
        #expect(Freshness.expiry(of: weekly("20261119", "2"), fetchedAt: fetched, fetchedDay: today) == nil)
        // The whole week ending Sunday 2026-11-22 is not over: one hour.
        #expect(
            Freshness.expiry(of: weekly("20261122", "0"), fetchedAt: fetched, fetchedDay: today) == fetched + Self.hour)
    }

    @Test("movie details 7 days, poster searches 30 days, movie searches 1 day")
    func fixedLifetimes() {
        let fetched = Self.midnightKST21
        let detail = UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": "20124079"])
        let poster = UpstreamCall(service: .kakao, path: KakaoPaths.image, parameters: ["query": "광해, 왕이 된 남자 영화 포스터"])
        let search = UpstreamCall(service: .kobis, path: KOBISPaths.movieList, parameters: ["movieNm": "광해"])
        for (call, lifetime) in [(detail, 7 * Self.day), (poster, 30 * Self.day), (search, Self.day)] {
            #expect(
                Freshness.isFresh(call, fetchedAt: fetched, fetchedDay: today, now: fetched + lifetime - 1), "\(call)")
            #expect(!Freshness.isFresh(call, fetchedAt: fetched, fetchedDay: today, now: fetched + lifetime), "\(call)")
        }
    }
}
