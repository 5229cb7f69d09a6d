/// How long a cached upstream body stays good (architecture.md, "Cache and quota").
///
/// Rules are reckoned from when the body was fetched, because that decides whether KOBIS could still revise it:
/// - a daily box office fetched two or more KST days after its date is final, kept for good; one fetched earlier
///   (yesterday's, revised by KOBIS until the next morning) is good for one hour; so is an empty list, however old
///   its day: every day has films, so an empty answer is KOBIS not having them yet (or a filter nothing matched,
///   which costs a call an hour at most), never a day's final word — kept for good, one bad answer would be the
///   day's answer for ever;
/// - a weekly period fetched two or more days after its last day is final; one fetched earlier, one hour;
/// - movie details 7 days, poster searches 30 days, movie searches 1 day (the list grows as films are registered);
/// - people and company details 7 days, as a movie's: a filmography grows by a film or two a year, and a finished
///   film's credits rarely change, so a week-old record is as good as a new one; people and company searches 1 day,
///   as movie searches (new names are registered daily);
/// - code lists 30 days: KOBIS adds a nation or a genre a few times a decade.
///
/// A pure function of the call, the entry's fetch time and day, and the current time: tests inject all three.
package enum Freshness {
    package static let revisableSeconds: Double = 3600
    package static let detailSeconds: Double = 7 * 86_400
    package static let posterSeconds: Double = 30 * 86_400
    package static let searchSeconds: Double = 86_400
    package static let codeListSeconds: Double = 30 * 86_400

    /// When the entry stops being fresh (seconds since 1970), or nil when it never does.
    /// `body`, when given, is the entry's: a box office whose list is empty is never final.
    package static func expiry(of call: UpstreamCall, fetchedAt: Double, fetchedDay: CalendarDate, body: [UInt8]? = nil)
        -> Double?
    {
        switch call.path {
        case KOBISPaths.daily, KOBISPaths.weekly:
            // targetDt is the day itself (daily) or the period's last day (weekly): final two days after it.
            guard let last = call.parameters["targetDt"].flatMap(CalendarDate.init) else {
                return fetchedAt + revisableSeconds
            }
            guard fetchedDay >= last.adding(days: 2), !(body.map(hasEmptyList) ?? false) else {
                return fetchedAt + revisableSeconds
            }
            return nil
        case KOBISPaths.movieInfo, KOBISPaths.peopleInfo, KOBISPaths.companyInfo:
            return fetchedAt + detailSeconds
        case KOBISPaths.codeList:
            return fetchedAt + codeListSeconds
        case KakaoPaths.image:
            return fetchedAt + posterSeconds
        default:
            return fetchedAt + searchSeconds
        }
    }

    /// The longest body scanned for an empty list: KOBIS's empty answers are 120–160 bytes (a list of one film is
    /// already 460), so five times that leaves room for a longer label and never scans a day's list.
    static let shortestList = 600

    package static func isFresh(
        _ call: UpstreamCall, fetchedAt: Double, fetchedDay: CalendarDate, now: Double, body: [UInt8]? = nil
    ) -> Bool {
        guard let expiry = expiry(of: call, fetchedAt: fetchedAt, fetchedDay: fetchedDay, body: body) else {
            return true
        }
        return now < expiry
    }

    /// Whether a box office body's list (`dailyBoxOfficeList` or `weeklyBoxOfficeList`) is `[]`: a byte scan for
    /// the member and an empty array after it, whitespace allowed, without parsing the body. Only a short body is
    /// scanned: KOBIS's empty answer is about 150 bytes, a day's list 5 KB, and this runs on every cache hit
    /// (scanning every list cost a cached answer about a microsecond).
    static func hasEmptyList(_ body: [UInt8]) -> Bool {
        let member = Array(#"BoxOfficeList""#.utf8)
        guard body.count > member.count, body.count <= shortestList else { return false }
        var index = 0
        while index + member.count <= body.count {
            guard body[index] == member[0], body[index..<index + member.count].elementsEqual(member) else {
                index += 1
                continue
            }
            var next = index + member.count
            func skipSpace() {
                while next < body.count, [0x20, 0x09, 0x0A, 0x0D].contains(body[next]) { next += 1 }
            }
            for expected in [UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]")] {
                skipSpace()
                guard next < body.count, body[next] == expected else { return false }
                next += 1
            }
            return true
        }
        return false
    }
}
