import JSONCore

/// What recorded responses exist, in terms a host understands: dates, periods, movie codes, titles.
package struct OfflineCoverage: Sendable {
    package private(set) var dailyDates: [CalendarDate] = []
    package private(set) var weeklyPeriods: [(period: WeekPeriod, end: CalendarDate)] = []
    package private(set) var movieCodes: [String] = []
    package private(set) var posterQueries: [String] = []
    package private(set) var peopleCodes: [String] = []
    package private(set) var companyCodes: [String] = []
    /// The recorded searches' parameters, by path: made into words (``searchTerms(_:)``) only when an
    /// `offline_unavailable` lists them, not at every start.
    private var searchParameters: [String: [[String: String]]] = [:]
    package private(set) var codeKinds: [CodeKind] = []
    /// The last day of the recorded runs' lists (`movie.run`'s default `through` offline); nil: no run is recorded.
    package internal(set) var runsThrough: CalendarDate?

    mutating func record(_ call: UpstreamCall) {
        switch call.path {
        case KOBISPaths.daily:
            if let date = call.parameters["targetDt"].flatMap(CalendarDate.init) {
                dailyDates.append(date); dailyDates.sort()
            }
        case KOBISPaths.weekly:
            if let date = call.parameters["targetDt"].flatMap(CalendarDate.init),
                let period = WeekPeriod.allCases.first(where: { $0.weekGb == call.parameters["weekGb"] })
            {
                weeklyPeriods.append((period, date))
                weeklyPeriods.sort { $0.end < $1.end }
            }
        case KOBISPaths.movieInfo:
            if let code = call.parameters["movieCd"] { movieCodes.append(code) }
        case KOBISPaths.movieList, KOBISPaths.peopleList, KOBISPaths.companyList:
            searchParameters[call.path, default: []].append(call.parameters)
        case KOBISPaths.peopleInfo:
            if let code = call.parameters["peopleCd"] { peopleCodes.append(code) }
        case KOBISPaths.companyInfo:
            if let code = call.parameters["companyCd"] { companyCodes.append(code) }
        case KOBISPaths.codeList:
            if let kind = CodeKind.allCases.first(where: { $0.comCode == call.parameters["comCode"] }) {
                codeKinds.append(kind)
            }
        case KakaoPaths.image:
            if let query = call.parameters["query"] { posterQueries.append(query) }
        default:
            break
        }
    }

    /// The recorded searches of `path`, each as its terms without its paging (`movieNm=범죄와의 전쟁`); `(newest)` for
    /// the unfiltered first page.
    func searches(_ path: String) -> [String] {
        (searchParameters[path] ?? []).map { parameters in
            let terms = parameters.sorted { $0.key < $1.key }.filter { $0.key != "curPage" && $0.key != "itemPerPage" }
                .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return terms.isEmpty ? "(newest)" : terms
        }
    }

    /// For a weekly call: the other periods recorded for the same day (the weekend of a date is asked for by default,
    /// and the week that holds it may be what is recorded), as the words that ask for them.
    private func otherPeriods(_ call: UpstreamCall) -> String {
        guard call.path == KOBISPaths.weekly, let date = call.parameters["targetDt"].flatMap(CalendarDate.init) else {
            return ""
        }
        let asked = WeekPeriod.allCases.first { $0.weekGb == call.parameters["weekGb"] } ?? .weekend
        let periods = weeklyPeriods.filter { recorded in
            let range = recorded.period.range(containing: recorded.end)
            return recorded.period != asked && range.start <= date && date <= range.end
        }.map(\.period.rawValue)
        guard !periods.isEmpty else { return "" }
        return " (the \(asked.rawValue) of \(date)); recorded for that day: period \(periods.joined(separator: " or "))"
    }

    /// The `offline_unavailable` error for a call the fixtures do not cover, naming what they do cover.
    func unavailable(_ call: UpstreamCall) -> BoxOfficeError {
        let (what, available): (String, [String]) =
            switch call.path {
            case KOBISPaths.daily:
                ("this daily box office (only the whole country, all films)", dailyDates.map(\.description))
            case KOBISPaths.weekly:
                ("this weekly box office", weeklyPeriods.map { "\($0.period.rawValue) ending \($0.end)" })
            case KOBISPaths.movieInfo: ("this movie", movieCodes)
            case KOBISPaths.movieList: ("this search", searches(call.path))
            case KOBISPaths.peopleList: ("this people search", searches(call.path))
            case KOBISPaths.peopleInfo: ("this person", peopleCodes)
            case KOBISPaths.companyList: ("this company search", searches(call.path))
            case KOBISPaths.companyInfo: ("this company", companyCodes)
            case KOBISPaths.codeList: ("this code list", codeKinds.map(\.rawValue))
            case KakaoPaths.image: ("this poster search", posterQueries)
            default: ("this call", [])
            }
        var error = BoxOfficeError(
            .offlineUnavailable,
            "offline mode: no recorded response covers \(what)\(otherPeriods(call)); set KOBIS_API_KEY to go live. "
                + "Recorded: \(available.joined(separator: ", "))",
            service: call.service)
        error.available = available
        return error
    }
}
