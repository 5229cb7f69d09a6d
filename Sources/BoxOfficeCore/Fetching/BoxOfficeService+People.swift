/// People, companies and code lists: each one KOBIS call through the same chain as a movie's details (the cache
/// with its freshness rules, coalescing, the per-service limit, the quota), decoded by ``KOBISDecoder``.
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

    package func person(code: String, refresh: Bool = false) async throws(BoxOfficeError) -> Person {
        let fetched = try await fetcher.fetch(
            UpstreamCall(
                service: .kobis, path: KOBISPaths.peopleInfo, parameters: ["peopleCd": code], refresh: refresh))
        return try KOBISDecoder.peopleInfo(fetched, peopleCode: code)
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

    package func company(code: String, refresh: Bool = false) async throws(BoxOfficeError) -> Company {
        let fetched = try await fetcher.fetch(
            UpstreamCall(
                service: .kobis, path: KOBISPaths.companyInfo, parameters: ["companyCd": code], refresh: refresh))
        return try KOBISDecoder.companyInfo(fetched, companyCode: code)
    }

    /// A code list. KOBIS leaves the regions' English names empty; they are filled from ``Region`` (the names
    /// `area` takes), so the list shows every name a box office request accepts.
    package func codes(_ kind: CodeKind, refresh: Bool = false) async throws(BoxOfficeError) -> CodeList {
        let fetched = try await fetcher.fetch(
            UpstreamCall(
                service: .kobis, path: KOBISPaths.codeList, parameters: ["comCode": kind.comCode], refresh: refresh))
        var list = try KOBISDecoder.codeList(fetched, kind: kind)
        if kind == .region {
            for index in list.codes.indices where list.codes[index].nameEnglish == nil {
                list.codes[index].nameEnglish = Region.all.first { $0.code == list.codes[index].code }?.nameEnglish
            }
        }
        return list
    }

    /// Readies, in one go, what the cache keeps for these movies' details (before a fan-out asks one by one).
    package func prefetchMovies(_ codes: [String]) async {
        await cache?.prefetch(codes.map { Self.movieCall($0, refresh: false) })
    }

    private static func page(_ page: Int, _ limit: Int) -> [String: String] {
        ["curPage": String(page), "itemPerPage": String(limit)]
    }
}
