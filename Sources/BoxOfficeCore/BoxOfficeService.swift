/// The domain's one entry point: box offices, movies, posters and searches, from whichever ``Fetcher`` it is
/// given (live services, offline fixtures, later a cache in front of them). Knows nothing of JSON-RPC.
public struct BoxOfficeService: Sendable {
    /// Filters of a box office call.
    public struct Filters: Sendable, Hashable {
        public enum Nation: String, Sendable { case korean, foreign }

        public var multiMovie: Bool?
        public var nation: Nation?
        public var area: String?

        public init(multiMovie: Bool? = nil, nation: Nation? = nil, area: String? = nil) {
            self.multiMovie = multiMovie
            self.nation = nation
            self.area = area
        }

        var parameters: [String: String] {
            var parameters: [String: String] = ["itemPerPage": "10"]
            if let multiMovie { parameters["multiMovieYn"] = multiMovie ? "Y" : "N" }
            if let nation { parameters["repNationCd"] = nation == .korean ? "K" : "F" }
            if let area { parameters["wideAreaCd"] = area }
            return parameters
        }
    }

    public let fetcher: any Fetcher
    /// "Today" in Seoul, asked on every call (a long-lived worker crosses midnight).
    public let calendar: @Sendable () -> SeoulCalendar
    /// Set in offline mode: what the fixtures cover, for defaults.
    public let offline: OfflineCoverage?

    public init(fetcher: any Fetcher, calendar: @escaping @Sendable () -> SeoulCalendar, offline: OfflineCoverage? = nil) {
        self.fetcher = fetcher
        self.calendar = calendar
        self.offline = offline
    }

    /// A day's box office; default yesterday (offline: the latest recorded day). KOBIS is always asked for all
    /// ten entries and `limit` is applied here, so every limit shares one upstream call.
    public func daily(date: CalendarDate?, limit: Int = 10, filters: Filters = Filters(), refresh: Bool = false) async throws(BoxOfficeError) -> BoxOffice {
        let call = try dailyCall(date: date, filters: filters, refresh: refresh)
        return try Self.dailyBoxOffice(try await fetcher.fetch(call), limit: limit)
    }

    /// The day's box office when it is fresh in memory, at once; nil when answering needs to wait (or fails:
    /// ``daily(date:limit:filters:refresh:)`` then says why).
    public func dailyInMemory(date: CalendarDate?, limit: Int = 10, filters: Filters = Filters()) -> BoxOffice? {
        guard let call = try? dailyCall(date: date, filters: filters, refresh: false), let fetched = fetcher.peek(call) else { return nil }
        return try? Self.dailyBoxOffice(fetched, limit: limit)
    }

    private func dailyCall(date: CalendarDate?, filters: Filters, refresh: Bool) throws(BoxOfficeError) -> UpstreamCall {
        let calendar = calendar()
        let day = date ?? offline?.dailyDates.last ?? calendar.yesterday
        try calendar.checkDaily(day)
        var parameters = filters.parameters
        parameters["targetDt"] = day.compact
        return UpstreamCall(service: .kobis, path: KOBISPaths.daily, parameters: parameters, refresh: refresh)
    }

    private static func dailyBoxOffice(_ fetched: Fetched, limit: Int) throws(BoxOfficeError) -> BoxOffice {
        var office = try decoded("daily", fetched) { () throws(BoxOfficeError) in try KOBISDecoder.dailyBoxOffice(fetched) }
        office.entries = Array(office.entries.prefix(limit))
        return office
    }

    /// A week's, weekend's or weekdays' box office; default the most recent finished period (offline: the latest
    /// recorded one). The period's last day is sent as `targetDt`, so any day of a week makes the same call.
    public func weekly(date: CalendarDate?, period: WeekPeriod = .weekend, limit: Int = 10, filters: Filters = Filters(), refresh: Bool = false) async throws(BoxOfficeError) -> BoxOffice {
        let call = try weeklyCall(date: date, period: period, filters: filters, refresh: refresh)
        return try Self.weeklyBoxOffice(try await fetcher.fetch(call), period: period, limit: limit)
    }

    /// The period's box office when it is fresh in memory, at once; nil otherwise.
    public func weeklyInMemory(date: CalendarDate?, period: WeekPeriod = .weekend, limit: Int = 10, filters: Filters = Filters()) -> BoxOffice? {
        guard let call = try? weeklyCall(date: date, period: period, filters: filters, refresh: false), let fetched = fetcher.peek(call) else { return nil }
        return try? Self.weeklyBoxOffice(fetched, period: period, limit: limit)
    }

    private func weeklyCall(date: CalendarDate?, period: WeekPeriod, filters: Filters, refresh: Bool) throws(BoxOfficeError) -> UpstreamCall {
        let calendar = calendar()
        let end: CalendarDate
        if let date {
            try calendar.checkWeekly(date, period)
            end = period.range(containing: date).end
        } else if let recorded = offline?.weeklyPeriods.last(where: { $0.period == period }) {
            end = recorded.end
        } else {
            end = calendar.latestFinished(period).end
        }
        var parameters = filters.parameters
        parameters["targetDt"] = end.compact
        parameters["weekGb"] = period.weekGb
        return UpstreamCall(service: .kobis, path: KOBISPaths.weekly, parameters: parameters, refresh: refresh)
    }

    private static func weeklyBoxOffice(_ fetched: Fetched, period: WeekPeriod, limit: Int) throws(BoxOfficeError) -> BoxOffice {
        var office = try decoded("weekly", fetched) { () throws(BoxOfficeError) in try KOBISDecoder.weeklyBoxOffice(fetched, period: period) }
        office.entries = Array(office.entries.prefix(limit))
        return office
    }

    /// A box office decoded once per cached body: later requests reuse the model, with this fetch's source.
    static func decoded(_ kind: String, _ fetched: Fetched, _ decode: () throws(BoxOfficeError) -> BoxOffice) throws(BoxOfficeError) -> BoxOffice {
        var office: BoxOffice
        if let derived = fetched.derived {
            office = try derived.value("decoded \(kind)", decode)
        } else {
            office = try decode()
        }
        office.source = fetched.source
        office.derived = fetched.derived
        return office
    }

    public func movie(code: String, refresh: Bool = false) async throws(BoxOfficeError) -> Movie {
        let fetched = try await fetcher.fetch(Self.movieCall(code, refresh: refresh))
        return try KOBISDecoder.movieInfo(fetched, movieCode: code)
    }

    /// Readies, in one go, what is kept for the details and posters of a box office's entries (before a fan-out
    /// asks for them one by one).
    public func prefetchParts(of office: BoxOffice, details: Bool, posters: Bool) async {
        var calls: [UpstreamCall] = []
        for entry in office.entries {
            if details { calls.append(Self.movieCall(entry.movieCode, refresh: false)) }
            if posters { calls.append(Self.posterCall(query: Self.posterQuery(entry.title), refresh: false)) }
        }
        await fetcher.prefetch(calls)
    }

    static func movieCall(_ code: String, refresh: Bool) -> UpstreamCall {
        UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": code], refresh: refresh)
    }

    static func posterQuery(_ title: String) -> String { "\(title) 영화 포스터" }

    static func posterCall(query: String, refresh: Bool) -> UpstreamCall {
        UpstreamCall(service: .kakao, path: KakaoPaths.image, parameters: ["query": query, "size": "1", "sort": "accuracy"], refresh: refresh)
    }

    /// The first image for "<title> 영화 포스터"; with a movie code, its Korean title is looked up first.
    /// `refresh` renews the search itself; a movie code's title comes from the cache as usual.
    public func poster(title: String?, movieCode: String?, refresh: Bool = false) async throws(BoxOfficeError) -> PosterSearch {
        var searched = title
        if searched == nil, let movieCode {
            searched = try await movie(code: movieCode).title
        }
        guard let searched else { throw BoxOfficeError(.invalidArgument, "give a title or a movieCode") }
        let query = Self.posterQuery(searched)
        let fetched = try await fetcher.fetch(Self.posterCall(query: query, refresh: refresh))
        return try KakaoDecoder.imageSearch(fetched, query: query)
    }

    public func search(title: String?, director: String?, year: Int?, page: Int = 1, limit: Int = 10) async throws(BoxOfficeError) -> MovieSearch {
        var parameters: [String: String] = ["curPage": String(page), "itemPerPage": String(limit)]
        if let title { parameters["movieNm"] = title }
        if let director { parameters["directorNm"] = director }
        if let year {
            parameters["prdtStartYear"] = String(year)
            parameters["prdtEndYear"] = String(year)
        }
        let fetched = try await fetcher.fetch(UpstreamCall(service: .kobis, path: KOBISPaths.movieList, parameters: parameters))
        return try KOBISDecoder.movieList(fetched, page: page)
    }
}
