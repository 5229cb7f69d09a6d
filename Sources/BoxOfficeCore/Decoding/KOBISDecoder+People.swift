import JSONCore

/// People, companies and code lists: the rest of the KOBIS bodies, decoded with the box office's care.
///
/// Quirks handled (from the recordings in `../shared/data/kobis` and upstream-apis.md):
/// - every scalar may be `""` (an unknown English name, CEO, role, sex): read as nil;
/// - `filmoNames` joins titles with `|` in the people list and with `,` in the company list (the recording
///   `companylist-default.json` shows commas); `companyPartNames` is comma-joined. Blanks are dropped;
/// - `sex` is 남자/여자 or `""`;
/// - `homepages` is an array of objects (`{"homeUrl": …}` per the documentation) or of strings; both are read, and
///   blanks dropped;
/// - the company info lists one `filmos` row per part a company had in a film; rows of one film are merged;
/// - the code list has no wrapper and no `source` (`{"codes":[{fullCd,korNm,engNm}]}`), and `engNm` is often `""`;
/// - an unknown people or company code comes back as an empty or missing info object: `not_found` (a record
///   without its code is malformed);
/// - an empty code list is no list: KOBIS does not know the comCode (`upstream_rejected`, never kept).
extension KOBISDecoder {
    package static func peopleList(_ fetched: Fetched, page: Int) throws(BoxOfficeError) -> PeopleSearch {
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        let result = try root.member("peopleListResult")
        var people: [PeopleSearch.Found] = []
        for item in try result.member("peopleList").elements() {
            people.append(
                PeopleSearch.Found(
                    peopleCode: try item.string("peopleCd"), name: try item.string("peopleNm"),
                    nameEnglish: try item.optionalString("peopleNmEn"), role: try item.optionalString("repRoleNm"),
                    filmography: try item.joined("filmoNames", by: "|")))
        }
        return PeopleSearch(total: try result.int("totCnt"), page: page, people: people, source: fetched.source)
    }

    package static func peopleInfo(_ fetched: Fetched, peopleCode: String) throws(BoxOfficeError) -> Person {
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        guard let info = try root.member("peopleInfoResult").optionalMember("peopleInfo"),
            case .object(let object) = info.value, !object.isEmpty
        else {
            var error = BoxOfficeError(.notFound, "KOBIS knows no person with the code \(peopleCode)", service: .kobis)
            error.peopleCode = peopleCode
            throw error
        }
        // A record without its code is not an unknown person but a body the worker cannot read.
        let code = try info.string("peopleCd")
        var filmography: [Person.Film] = []
        for film in try info.optionalMember("filmos")?.elements() ?? [] {
            if filmography.count == longestFilmography { break }
            filmography.append(
                Person.Film(
                    movieCode: try film.string("movieCd"), title: try film.string("movieNm"),
                    part: try film.optionalString("moviePartNm")))
        }
        return Person(
            peopleCode: code, name: try info.string("peopleNm"), nameEnglish: try info.optionalString("peopleNmEn"),
            sex: try info.optionalString("sex").flatMap(Person.Sex.init(kobis:)),
            role: try info.optionalString("repRoleNm"),
            homepages: try info.optionalMember("homepages")?.texts("homeUrl") ?? [],
            filmography: filmography, source: fetched.source)
    }

    /// The most films a person's or a company's filmography keeps, in KOBIS's order: ten times the longest real
    /// one (a distributor's), so no answer is cut in practice, and a hostile record of 100,000 films cannot make
    /// each answer megabytes (twenty at once once took a worker to 730 MB).
    package static let longestFilmography = 5000

    package static func companyList(_ fetched: Fetched, page: Int) throws(BoxOfficeError) -> CompanySearch {
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        let result = try root.member("companyListResult")
        var companies: [CompanySearch.Found] = []
        for item in try result.member("companyList").elements() {
            companies.append(
                CompanySearch.Found(
                    companyCode: try item.string("companyCd"), name: try item.string("companyNm"),
                    nameEnglish: try item.optionalString("companyNmEn"), ceo: try item.optionalString("ceoNm"),
                    parts: try item.joined("companyPartNames", by: ","),
                    filmography: try item.joined("filmoNames", by: ",")))
        }
        return CompanySearch(
            total: try result.int("totCnt"), page: page, companies: companies, source: fetched.source)
    }

    package static func companyInfo(_ fetched: Fetched, companyCode: String) throws(BoxOfficeError) -> Company {
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        guard let info = try root.member("companyInfoResult").optionalMember("companyInfo"),
            case .object(let object) = info.value, !object.isEmpty
        else {
            var error = BoxOfficeError(
                .notFound, "KOBIS knows no company with the code \(companyCode)", service: .kobis)
            error.companyCode = companyCode
            throw error
        }
        let code = try info.string("companyCd")
        var filmography: [Company.Film] = []
        var index: [String: Int] = [:]
        for film in try info.optionalMember("filmos")?.elements() ?? [] {
            let movieCode = try film.string("movieCd")
            let part = try film.optionalString("companyPartNm")
            if let at = index[movieCode] {
                if let part, !filmography[at].parts.contains(part) { filmography[at].parts.append(part) }
                continue
            }
            // Past the cap, a film already kept may still gain a part; a new one is left out.
            if filmography.count == longestFilmography { continue }
            index[movieCode] = filmography.count
            filmography.append(
                Company.Film(movieCode: movieCode, title: try film.string("movieNm"), parts: part.map { [$0] } ?? []))
        }
        return Company(
            companyCode: code, name: try info.string("companyNm"), nameEnglish: try info.optionalString("companyNmEn"),
            ceo: try info.optionalString("ceoNm"),
            parts: try info.optionalMember("parts")?.strings("companyPartNm") ?? [], filmography: filmography,
            source: fetched.source)
    }

    package static func codeList(_ fetched: Fetched, kind: CodeKind) throws(BoxOfficeError) -> CodeList {
        let root = try UpstreamReader.read(.kobis, fetched)
        try checkFault(root)
        var codes: [CodeList.Code] = []
        for item in try root.member("codes").elements() {
            codes.append(
                CodeList.Code(
                    code: try item.string("fullCd"), name: try item.string("korNm"),
                    nameEnglish: try item.optionalString("engNm")))
        }
        guard !codes.isEmpty else {
            // No kind is empty: KOBIS does not know the comCode (status, genre and grade are unverified ones).
            var error = BoxOfficeError(
                .upstreamRejected,
                "KOBIS sent no codes for comCode \(kind.comCode) (\(kind.rawValue)): it may not be KOBIS's code for that list",
                service: .kobis)
            error.upstreamCode = kind.comCode
            throw error
        }
        return CodeList(kind: kind, codes: codes, source: fetched.source)
    }
}

extension UpstreamReader {
    /// A joined list member (`"a|b"`, `"제작사,배급사"`) split and trimmed, blanks dropped; a missing member is none.
    func joined(_ key: String, by separator: Character) throws(BoxOfficeError) -> [String] {
        guard let text = try optionalString(key) else { return [] }
        return text.split(separator: separator).map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// An array of strings, or of objects holding the string at `key`; blanks dropped.
    func texts(_ key: String) throws(BoxOfficeError) -> [String] {
        var result: [String] = []
        for element in try elements() {
            let text =
                if case .object = element.value { try element.optionalString(key) } else {
                    try element.optionalString()
                }
            if let text { result.append(text) }
        }
        return result
    }
}
