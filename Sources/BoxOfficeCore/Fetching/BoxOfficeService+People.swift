/// People, companies and code lists: each one KOBIS call through the same chain as a movie's details (the cache
/// with its freshness rules, coalescing, the per-service limit, the quota), decoded by ``KOBISDecoder``. The
/// details and code lists are ``Lookup``s: a method answers them at once when their body is in memory.
extension BoxOfficeService {
    /// People by name and/or a title they worked on; with neither, KOBIS's newest registered people.
    package func people(name: String?, filmography: String?, page: Int = 1, limit: Int = 10, refresh: Bool = false)
        async throws(BoxOfficeError) -> PeopleSearch
    {
        var parameters = Self.page(page, limit)
        parameters["peopleNm"] = name
        parameters["filmoNames"] = filmography
        let fetched = try await fetcher.fetch(
            UpstreamCall(service: .kobis, path: KOBISPaths.peopleList, parameters: parameters, refresh: refresh))
        return try KOBISDecoder.peopleList(fetched, page: page)
    }

    /// Companies by name, CEO and/or part code (a `companyPart` code); with none, KOBIS's newest registered ones.
    package func companies(
        name: String?, ceo: String?, part: String?, page: Int = 1, limit: Int = 10, refresh: Bool = false
    ) async throws(BoxOfficeError) -> CompanySearch {
        var parameters = Self.page(page, limit)
        parameters["companyNm"] = name
        parameters["ceoNm"] = ceo
        parameters["companyPartCd"] = part
        let fetched = try await fetcher.fetch(
            UpstreamCall(service: .kobis, path: KOBISPaths.companyList, parameters: parameters, refresh: refresh))
        return try KOBISDecoder.companyList(fetched, page: page)
    }

    /// Readies, in one go, what the cache keeps for these movies' details (before a fan-out asks one by one).
    package func prefetchMovies(_ codes: [String]) async {
        await cache?.prefetch(codes.map { Self.movieCall($0, refresh: false) })
    }

    private static func page(_ page: Int, _ limit: Int) -> [String: String] {
        ["curPage": String(page), "itemPerPage": String(limit)]
    }
}
