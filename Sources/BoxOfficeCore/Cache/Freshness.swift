/// How long a cached upstream body stays good (architecture.md, "Cache and quota").
///
/// Rules are reckoned from when the body was fetched, because that decides whether KOBIS could still revise it:
/// - a daily box office fetched two or more KST days after its date is final, kept for good; one fetched earlier
///   (yesterday's, revised by KOBIS until the next morning) is good for one hour;
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
    package static func expiry(of call: UpstreamCall, fetchedAt: Double, fetchedDay: CalendarDate) -> Double? {
        switch call.path {
        case KOBISPaths.daily, KOBISPaths.weekly:
            // targetDt is the day itself (daily) or the period's last day (weekly): final two days after it.
            guard let last = call.parameters["targetDt"].flatMap(CalendarDate.init) else {
                return fetchedAt + revisableSeconds
            }
            return fetchedDay >= last.adding(days: 2) ? nil : fetchedAt + revisableSeconds
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

    package static func isFresh(_ call: UpstreamCall, fetchedAt: Double, fetchedDay: CalendarDate, now: Double) -> Bool
    {
        guard let expiry = expiry(of: call, fetchedAt: fetchedAt, fetchedDay: fetchedDay) else { return true }
        return now < expiry
    }
}
