/// The domain's one entry point: box offices, movies, posters, searches, people, companies and code lists, from
/// whichever ``Fetcher`` it is given (live services or offline fixtures, with the cache in front of them). Knows nothing of JSON-RPC.
package struct BoxOfficeService: Sendable {
    /// Filters of a box office call.
    package struct Filters: Sendable, Hashable {
        package enum Nation: String, Sendable { case korean, foreign }

        package var multiMovie: Bool?
        package var nation: Nation?
        package var area: String?

        package init(multiMovie: Bool? = nil, nation: Nation? = nil, area: String? = nil) {
            self.multiMovie = multiMovie
            self.nation = nation
            self.area = area
        }

        /// With `area` as its code, whichever name it was given by (``Region/named(_:)``).
        func resolved() throws(BoxOfficeError) -> Filters {
            guard let area else { return self }
            guard let region = Region.named(area) else {
                var error = BoxOfficeError(
                    .invalidArgument, "\"\(area)\" is not a region: use a code or a name of \(Region.listed)")
                error.argument = .area
                throw error
            }
            var filters = self
            filters.area = region.code
            return filters
        }

        var parameters: [String: String] {
            var parameters: [String: String] = ["itemPerPage": "10"]
            if let multiMovie { parameters["multiMovieYn"] = multiMovie ? "Y" : "N" }
            if let nation { parameters["repNationCd"] = nation == .korean ? "K" : "F" }
            if let area { parameters["wideAreaCd"] = area }
            return parameters
        }
    }

    package let fetcher: any Fetcher
    /// The cache at the front of the chain, when there is one: what is at hand in memory, and prefetching. Given
    /// by name, so that a chain without it (or with something in front of it) has no fast path, visibly.
    package let cache: CachingFetcher?
    /// "Today" in Seoul, asked on every call (a long-lived worker crosses midnight).
    package let calendar: @Sendable () -> SeoulCalendar
    /// Set in offline mode: what the fixtures cover, for defaults.
    package let offline: OfflineSummary?
    /// The box office calls already built.
    private var boxOfficeCalls: BoxOfficeCalls { BoxOfficeCalls.shared }

    /// A service whose chain starts with `cache`.
    package init(
        cache: CachingFetcher, calendar: @escaping @Sendable () -> SeoulCalendar, offline: OfflineSummary? = nil
    ) {
        fetcher = cache
        self.cache = cache
        self.calendar = calendar
        self.offline = offline
    }

    /// A service without a cache: nothing is at hand, every call goes through `fetcher`.
    package init(
        fetcher: any Fetcher, calendar: @escaping @Sendable () -> SeoulCalendar, offline: OfflineSummary? = nil
    ) {
        self.fetcher = fetcher
        cache = nil
        self.calendar = calendar
        self.offline = offline
    }

    /// Resolves a box office request into its one upstream call: the date rules are checked and the call's key is
    /// built here, once per request.
    package func plan(_ request: BoxOfficeRequest) throws(BoxOfficeError) -> BoxOfficePlan {
        let calendar = calendar()
        let filters = try request.filters.resolved()
        let key: BoxOfficeCalls.Key
        switch request.span {
        case .daily(let date):
            let day = date ?? offline?.dailyDates.last ?? calendar.yesterday
            try calendar.checkDaily(day)
            key = BoxOfficeCalls.Key(target: day, period: nil, filters: filters)
        case .weekly(let date, let period):
            let end: CalendarDate
            if let date {
                try calendar.checkWeekly(date, period)
                end = period.range(containing: date).end
            } else if let recorded = offline?.weeklyPeriods.last(where: { $0.period == period }) {
                end = recorded.end
            } else {
                end = calendar.latestFinished(period).end
            }
            key = BoxOfficeCalls.Key(target: end, period: period, filters: filters)
        }
        let call = boxOfficeCalls.call(key, refresh: request.refresh)
        return BoxOfficePlan(request: request, call: call)
    }

    /// The planned box office when its body is fresh in the memory tier, at once; nil when answering needs to wait
    /// (or fails: ``boxOffice(_:)`` then says why). A miss is noted in the plan, so its fetch does not ask memory
    /// again unless memory took a new body meanwhile.
    package func inMemory(_ plan: inout BoxOfficePlan) -> BodyBacked<BoxOffice>? {
        guard !plan.call.refresh, let cache else { return nil }
        let generation = cache.memoryGeneration
        guard let fetched = cache.inMemory(plan.call) else {
            plan.memoryCheckedAt = generation
            return nil
        }
        return try? Self.boxOffice(fetched, plan)
    }

    /// The planned box office, through the whole fetcher chain.
    package func boxOffice(_ plan: BoxOfficePlan) async throws(BoxOfficeError) -> BodyBacked<BoxOffice> {
        let fetched =
            if let cache {
                try await cache.fetch(plan.call, memoryCheckedAt: plan.memoryCheckedAt)
            } else {
                try await fetcher.fetch(plan.call)
            }
        return try Self.boxOffice(fetched, plan)
    }

    /// Readies, in one go, what the cache keeps for these planned box offices (a range export's periods).
    package func prefetch(_ plans: [BoxOfficePlan]) async {
        await cache?.prefetch(plans.map(\.call))
    }

    /// A box office decoded once per cached body (later requests reuse the model), with this fetch's source and
    /// the plan's entry count.
    private static func boxOffice(_ fetched: Fetched, _ plan: BoxOfficePlan) throws(BoxOfficeError) -> BodyBacked<
        BoxOffice
    > {
        var office = try DecodedBoxOffice.of(fetched, period: plan.request.span.period)
        office.source = fetched.source
        office.entries = Array(office.entries.prefix(plan.request.limit))
        return BodyBacked(office, body: fetched.derived?.serial)
    }

    package func movie(code: String, refresh: Bool = false) async throws(BoxOfficeError) -> Movie {
        try await fetch(.movie(code, refresh: refresh)).value
    }

    /// Readies, in one go, what is kept for the details and posters of a box office's entries (before a fan-out
    /// asks for them one by one).
    package func prefetchParts(of office: BoxOffice, details: Bool, posters: Bool) async {
        var calls: [UpstreamCall] = []
        for entry in office.entries {
            if details { calls.append(Self.movieCall(entry.movieCode, refresh: false)) }
            if posters { calls.append(Self.posterCall(query: Self.posterQuery(entry.title), refresh: false)) }
        }
        await cache?.prefetch(calls)
    }

    static func movieCall(_ code: String, refresh: Bool) -> UpstreamCall {
        UpstreamCall(service: .kobis, path: KOBISPaths.movieInfo, parameters: ["movieCd": code], refresh: refresh)
    }

    static func posterQuery(_ title: String) -> String { "\(title) 영화 포스터" }

    static func posterCall(query: String, refresh: Bool) -> UpstreamCall {
        UpstreamCall(
            service: .kakao, path: KakaoPaths.image, parameters: ["query": query, "size": "1", "sort": "accuracy"],
            refresh: refresh)
    }

    /// The first image for "<title> 영화 포스터"; with a movie code, its Korean title is looked up first.
    /// `refresh` renews the search itself; a movie code's title comes from the cache as usual.
    package func poster(title: String?, movieCode: String?, refresh: Bool = false) async throws(BoxOfficeError)
        -> PosterSearch
    {
        var searched = title
        if searched == nil, let movieCode {
            searched = try await movie(code: movieCode).title
        }
        guard let searched else {
            throw BoxOfficeError(.invalidArgument, "a poster is searched by a title or by a movie code")
        }
        let query = Self.posterQuery(searched)
        let fetched = try await fetcher.fetch(Self.posterCall(query: query, refresh: refresh))
        return try KakaoDecoder.imageSearch(fetched, query: query)
    }

    package func search(title: String?, director: String?, year: Int?, page: Int = 1, limit: Int = 10)
        async throws(BoxOfficeError) -> MovieSearch
    {
        var parameters: [String: String] = ["curPage": String(page), "itemPerPage": String(limit)]
        if let title { parameters["movieNm"] = title }
        if let director { parameters["directorNm"] = director }
        if let year {
            parameters["prdtStartYear"] = String(year)
            parameters["prdtEndYear"] = String(year)
        }
        let fetched = try await fetcher.fetch(
            UpstreamCall(service: .kobis, path: KOBISPaths.movieList, parameters: parameters))
        return try KOBISDecoder.movieList(fetched, page: page)
    }
}
