import JSONCore

/// KOBIS bodies into the normalized models, with every quirk of upstream-apis.md §1.3 handled.
public enum KOBISDecoder {
    /// KOBIS answers errors with HTTP 200 and `{"faultInfo":{"message","errorCode"}}`.
    static func checkFault(_ body: UpstreamReader) throws(BoxOfficeError) {
        guard let fault = body.optionalMember("faultInfo") else { return }
        let code = try? fault.member("errorCode").string()
        let message = try? fault.member("message").string()
        var error: BoxOfficeError
        if code == "320011" {
            error = BoxOfficeError(.quotaExhausted, "KOBIS says the key's daily call quota is used up (320011)", service: .kobis)
        } else {
            error = BoxOfficeError(.upstreamRejected, "KOBIS rejected the request: \(message ?? "no message") (\(code ?? "no code"))", service: .kobis)
        }
        error.upstreamCode = code
        error.upstreamMessage = message
        throw error
    }

    public static func dailyBoxOffice(_ body: [UInt8], source: Source) throws(BoxOfficeError) -> BoxOffice {
        try boxOffice(body, list: "dailyBoxOfficeList", kind: .daily, source: source)
    }

    public static func weeklyBoxOffice(_ body: [UInt8], period: WeekPeriod, source: Source) throws(BoxOfficeError) -> BoxOffice {
        let kind: BoxOffice.Kind = switch period {
        case .week: .week
        case .weekend: .weekend
        case .weekdays: .weekdays
        }
        return try boxOffice(body, list: "weeklyBoxOfficeList", kind: kind, source: source)
    }

    static func boxOffice(_ body: [UInt8], list: String, kind: BoxOffice.Kind, source: Source) throws(BoxOfficeError) -> BoxOffice {
        let root = try UpstreamReader.parse(.kobis, body)
        try checkFault(root)
        let result = try root.member("boxOfficeResult")
        let range = try result.member("showRange")
        let parts = try range.string().split(separator: "~").map { CalendarDate(String($0).trimmingSpaces) }
        guard parts.count == 2, let start = parts[0], let end = parts[1] else {
            throw range.fail("\"\(try range.string())\" is not a date range")
        }
        var entries: [BoxOfficeEntry] = []
        for item in try result.member(list).elements() {
            entries.append(try entry(item))
        }
        return BoxOffice(
            kind: kind, label: try result.member("boxofficeType").string(), start: start, end: end,
            yearWeek: kind == .daily ? nil : try result.optionalMember("yearWeekTime")?.optionalString(),
            entries: entries, source: source
        )
    }

    static func entry(_ item: UpstreamReader) throws(BoxOfficeError) -> BoxOfficeEntry {
        let change = try item.member("rankInten").int()
        let isNew = try item.member("rankOldAndNew").string() == "NEW"
        let trend: BoxOfficeEntry.Trend = isNew ? .new : change > 0 ? .up : change < 0 ? .down : .same
        return BoxOfficeEntry(
            rank: try item.member("rank").int(),
            rankChange: change,
            trend: trend,
            movieCode: try item.member("movieCd").string(),
            title: try item.member("movieNm").string(),
            openDate: try item.member("openDt").optionalDate(),
            audience: BoxOfficeEntry.Figures(
                amount: try item.member("audiCnt").int64(), change: try item.member("audiInten").int64(),
                changeRate: try item.member("audiChange").double(), total: try item.member("audiAcc").int64()
            ),
            sales: BoxOfficeEntry.Figures(
                amount: try item.member("salesAmt").int64(), change: try item.member("salesInten").int64(),
                changeRate: try item.member("salesChange").double(), total: try item.member("salesAcc").int64()
            ),
            salesShare: try item.member("salesShare").double(),
            screens: try item.member("scrnCnt").int64(),
            shows: try item.member("showCnt").int64()
        )
    }

    /// Movie info; an answer without a movie (or with a blank code) means KOBIS does not know `movieCode`.
    public static func movieInfo(_ body: [UInt8], movieCode: String, source: Source) throws(BoxOfficeError) -> Movie {
        let root = try UpstreamReader.parse(.kobis, body)
        try checkFault(root)
        guard let info = try root.member("movieInfoResult").optionalMember("movieInfo"),
              case .object(let object) = info.value, !object.isEmpty,
              let code = try info.optionalMember("movieCd")?.optionalString()
        else {
            var error = BoxOfficeError(.notFound, "KOBIS knows no movie with the code \(movieCode)", service: .kobis)
            error.movieCode = movieCode
            throw error
        }
        var directors: [Movie.Person] = []
        for person in try info.member("directors").elements() {
            directors.append(Movie.Person(name: try person.member("peopleNm").string(), nameEnglish: try person.optionalMember("peopleNmEn")?.optionalString()))
        }
        var actors: [Movie.Actor] = []
        for actor in try info.member("actors").elements() {
            actors.append(Movie.Actor(
                name: try actor.member("peopleNm").string(), nameEnglish: try actor.optionalMember("peopleNmEn")?.optionalString(),
                role: try actor.optionalMember("cast")?.optionalString(), roleEnglish: try actor.optionalMember("castEn")?.optionalString()
            ))
        }
        var showTypes: [Movie.ShowType] = []
        for show in try info.member("showTypes").elements() {
            showTypes.append(Movie.ShowType(group: try show.member("showTypeGroupNm").string(), name: try show.member("showTypeNm").string()))
        }
        var ratings: [Movie.Rating] = []
        for audit in try info.member("audits").elements() {
            ratings.append(Movie.Rating(number: try audit.optionalMember("auditNo")?.optionalString(), grade: try audit.member("watchGradeNm").string()))
        }
        var companies: [Movie.Company] = []
        for company in try info.member("companys").elements() {
            companies.append(Movie.Company(
                code: try company.member("companyCd").string(), name: try company.member("companyNm").string(),
                nameEnglish: try company.optionalMember("companyNmEn")?.optionalString(),
                role: try company.optionalMember("companyPartNm")?.optionalString()
            ))
        }
        var staffs: [Movie.Staff] = []
        for staff in try info.member("staffs").elements() {
            staffs.append(Movie.Staff(
                name: try staff.member("peopleNm").string(), nameEnglish: try staff.optionalMember("peopleNmEn")?.optionalString(),
                role: try staff.optionalMember("staffRoleNm")?.optionalString()
            ))
        }
        return Movie(
            movieCode: code, title: try info.member("movieNm").string(),
            titleEnglish: try info.optionalMember("movieNmEn")?.optionalString(),
            titleOriginal: try info.optionalMember("movieNmOg")?.optionalString(),
            productionYear: try info.optionalMember("prdtYear")?.optionalInt(),
            openDate: try info.optionalMember("openDt")?.optionalDate(),
            runtimeMinutes: try info.optionalMember("showTm")?.optionalInt(),
            status: try info.optionalMember("prdtStatNm")?.optionalString(),
            type: try info.optionalMember("typeNm")?.optionalString(),
            nations: try info.member("nations").strings("nationNm"),
            genres: try info.member("genres").strings("genreNm"),
            directors: directors, actors: actors, showTypes: showTypes, ratings: ratings, companies: companies,
            staffs: staffs, source: source
        )
    }

    /// A movie list page. `nationAlt`/`genreAlt` are comma-joined upstream.
    public static func movieList(_ body: [UInt8], page: Int) throws(BoxOfficeError) -> MovieSearch {
        let root = try UpstreamReader.parse(.kobis, body)
        try checkFault(root)
        let result = try root.member("movieListResult")
        var movies: [MovieSearch.Found] = []
        for item in try result.member("movieList").elements() {
            func split(_ key: String) throws(BoxOfficeError) -> [String] {
                (try item.optionalMember(key)?.optionalString() ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            }
            var directors: [String] = []
            for person in try item.optionalMember("directors")?.elements() ?? [] {
                directors.append(try person.member("peopleNm").string())
            }
            movies.append(MovieSearch.Found(
                movieCode: try item.member("movieCd").string(), title: try item.member("movieNm").string(),
                titleEnglish: try item.optionalMember("movieNmEn")?.optionalString(),
                productionYear: try item.optionalMember("prdtYear")?.optionalInt(),
                openDate: try item.optionalMember("openDt")?.optionalDate(),
                type: try item.optionalMember("typeNm")?.optionalString(),
                status: try item.optionalMember("prdtStatNm")?.optionalString(),
                nations: try split("nationAlt"), genres: try split("genreAlt"), directors: directors
            ))
        }
        return MovieSearch(total: try result.member("totCnt").int(), page: page, movies: movies)
    }
}
