import JSONCore

/// KOBIS bodies into the normalized models, with every quirk of upstream-apis.md §1.3 handled.
package enum KOBISDecoder {
    /// KOBIS answers errors with HTTP 200 and `{"faultInfo":{"message","errorCode"}}`.
    static func checkFault(_ body: UpstreamReader) throws(BoxOfficeError) {
        guard let fault = body.optionalMember("faultInfo") else { return }
        let code = try? fault.string("errorCode")
        let message = try? fault.string("message")
        var error: BoxOfficeError
        if code == "320011" {
            error = BoxOfficeError(
                .quotaExhausted, "KOBIS says the key's daily call quota is used up (320011)", service: .kobis)
        } else {
            error = BoxOfficeError(
                .upstreamRejected, "KOBIS rejected the request: \(message ?? "no message") (\(code ?? "no code"))",
                service: .kobis)
        }
        error.upstreamCode = code
        error.upstreamMessage = message
        throw error
    }

    package static func dailyBoxOffice(_ body: [UInt8], source: Source) throws(BoxOfficeError) -> BoxOffice {
        try dailyBoxOffice(Fetched(body: body, source: source))
    }

    package static func dailyBoxOffice(_ fetched: Fetched) throws(BoxOfficeError) -> BoxOffice {
        try boxOffice(fetched, list: "dailyBoxOfficeList", kind: .daily)
    }

    package static func weeklyBoxOffice(_ body: [UInt8], period: WeekPeriod, source: Source) throws(BoxOfficeError)
        -> BoxOffice
    {
        try weeklyBoxOffice(Fetched(body: body, source: source), period: period)
    }

    package static func weeklyBoxOffice(_ fetched: Fetched, period: WeekPeriod) throws(BoxOfficeError) -> BoxOffice {
        let kind: BoxOffice.Kind =
            switch period {
            case .week: .week
            case .weekend: .weekend
            case .weekdays: .weekdays
            }
        return try boxOffice(fetched, list: "weeklyBoxOfficeList", kind: kind)
    }

    static func boxOffice(_ fetched: Fetched, list: String, kind: BoxOffice.Kind) throws(BoxOfficeError) -> BoxOffice {
        let source = fetched.source
        let root = try UpstreamReader.read(.kobis, fetched)
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
            kind: kind, label: try result.string("boxofficeType"), start: start, end: end,
            yearWeek: kind == .daily ? nil : try result.optionalString("yearWeekTime"),
            entries: entries, source: source
        )
    }

    /// One entry, its fields read in the order KOBIS writes them (each then found at once, ``UpstreamReader``).
    static func entry(_ item: UpstreamReader) throws(BoxOfficeError) -> BoxOfficeEntry {
        let rank = try item.int("rank")
        let change = try item.int("rankInten")
        let isNew = try item.string("rankOldAndNew") == "NEW"
        let trend: BoxOfficeEntry.Trend = isNew ? .new : change > 0 ? .up : change < 0 ? .down : .same
        let movieCode = try item.string("movieCd")
        let title = try item.string("movieNm")
        let openDate = try item.optionalDate("openDt")
        let salesAmount = try item.int64("salesAmt")
        let salesShare = try item.double("salesShare")
        let sales = BoxOfficeEntry.Figures(
            amount: salesAmount, change: try item.int64("salesInten"), changeRate: try item.double("salesChange"),
            total: try item.int64("salesAcc"))
        let audience = BoxOfficeEntry.Figures(
            amount: try item.int64("audiCnt"), change: try item.int64("audiInten"),
            changeRate: try item.double("audiChange"), total: try item.int64("audiAcc"))
        return BoxOfficeEntry(
            rank: rank, rankChange: change, trend: trend, movieCode: movieCode, title: title, openDate: openDate,
            audience: audience, sales: sales, salesShare: salesShare, screens: try item.int64("scrnCnt"),
            shows: try item.int64("showCnt"))
    }

    /// Movie info; an answer without a movie (or with a blank code) means KOBIS does not know `movieCode`.
    package static func movieInfo(_ body: [UInt8], movieCode: String, source: Source) throws(BoxOfficeError) -> Movie {
        try movieInfo(Fetched(body: body, source: source), movieCode: movieCode)
    }

    package static func movieInfo(_ fetched: Fetched, movieCode: String) throws(BoxOfficeError) -> Movie {
        let source = fetched.source
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        guard let info = try root.member("movieInfoResult").optionalMember("movieInfo"),
            case .object(let object) = info.value, !object.isEmpty,
            let code = try info.optionalString("movieCd")
        else {
            var error = BoxOfficeError(.notFound, "KOBIS knows no movie with the code \(movieCode)", service: .kobis)
            error.movieCode = movieCode
            throw error
        }
        var directors: [Movie.Person] = []
        for person in try info.member("directors").elements() {
            directors.append(
                Movie.Person(name: try person.string("peopleNm"), nameEnglish: try person.optionalString("peopleNmEn")))
        }
        var actors: [Movie.Actor] = []
        for actor in try info.member("actors").elements() {
            actors.append(
                Movie.Actor(
                    name: try actor.string("peopleNm"), nameEnglish: try actor.optionalString("peopleNmEn"),
                    role: try actor.optionalString("cast"), roleEnglish: try actor.optionalString("castEn")
                ))
        }
        var showTypes: [Movie.ShowType] = []
        for show in try info.member("showTypes").elements() {
            showTypes.append(
                Movie.ShowType(group: try show.string("showTypeGroupNm"), name: try show.string("showTypeNm")))
        }
        var ratings: [Movie.Rating] = []
        for audit in try info.member("audits").elements() {
            ratings.append(
                Movie.Rating(number: try audit.optionalString("auditNo"), grade: try audit.string("watchGradeNm")))
        }
        var companies: [Movie.Company] = []
        for company in try info.member("companys").elements() {
            companies.append(
                Movie.Company(
                    code: try company.string("companyCd"), name: try company.string("companyNm"),
                    nameEnglish: try company.optionalString("companyNmEn"),
                    role: try company.optionalString("companyPartNm")
                ))
        }
        var staffs: [Movie.Staff] = []
        for staff in try info.member("staffs").elements() {
            staffs.append(
                Movie.Staff(
                    name: try staff.string("peopleNm"), nameEnglish: try staff.optionalString("peopleNmEn"),
                    role: try staff.optionalString("staffRoleNm")
                ))
        }
        return Movie(
            movieCode: code, title: try info.string("movieNm"),
            titleEnglish: try info.optionalString("movieNmEn"),
            titleOriginal: try info.optionalString("movieNmOg"),
            productionYear: try info.optionalInt("prdtYear"),
            openDate: try info.optionalDate("openDt"),
            runtimeMinutes: try info.optionalInt("showTm"),
            status: try info.optionalString("prdtStatNm"),
            type: try info.optionalString("typeNm"),
            nations: try info.member("nations").strings("nationNm"),
            genres: try info.member("genres").strings("genreNm"),
            directors: directors, actors: actors, showTypes: showTypes, ratings: ratings, companies: companies,
            staffs: staffs, source: source
        )
    }

    /// A movie list page. `nationAlt`/`genreAlt` are comma-joined upstream.
    package static func movieList(_ fetched: Fetched, page: Int) throws(BoxOfficeError) -> MovieSearch {
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        let result = try root.member("movieListResult")
        var movies: [MovieSearch.Found] = []
        for item in try result.member("movieList").elements() {
            func split(_ key: String) throws(BoxOfficeError) -> [String] {
                (try item.optionalMember(key)?.optionalString() ?? "").split(separator: ",").map {
                    String($0).trimmingSpaces
                }.filter { !$0.isEmpty }
            }
            var directors: [String] = []
            for person in try item.optionalMember("directors")?.elements() ?? [] {
                directors.append(try person.string("peopleNm"))
            }
            movies.append(
                MovieSearch.Found(
                    movieCode: try item.string("movieCd"), title: try item.string("movieNm"),
                    titleEnglish: try item.optionalString("movieNmEn"),
                    productionYear: try item.optionalInt("prdtYear"),
                    openDate: try item.optionalDate("openDt"),
                    type: try item.optionalString("typeNm"),
                    status: try item.optionalString("prdtStatNm"),
                    nations: try split("nationAlt"), genres: try split("genreAlt"), directors: directors
                ))
        }
        return MovieSearch(total: try result.int("totCnt"), page: page, movies: movies)
    }
}
