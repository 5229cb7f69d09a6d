import BoxOfficeCore
import Foundation
import TestSupport
import Testing

/// People, companies and code lists: the real recordings (skipped without `../shared`), the project's fixtures
/// (always), and each quirk on a body of its own.
@Suite("Decoding people, companies and code lists")
struct PeopleDecodingTests {
    static let source = Source(origin: .kobis, fetchedAt: "2026-11-21T00:00:00Z")

    static func fetched(_ text: String) -> Fetched {
        Fetched(body: Array(text.utf8), source: source)
    }

    static func recorded(_ name: String) throws -> Fetched {
        Fetched(body: try RecordedBodies.body(name), source: source)
    }

    static func fixture(_ name: String) throws -> Fetched {
        let url = SharedData.repositoryRoot.appending(path: "Fixtures/upstream/kobis/\(name)")
        return Fetched(body: [UInt8](try Data(contentsOf: url)), source: source)
    }

    @Test(
        "the recorded people list: blanks to nil, one title each",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func recordedPeopleList() throws {
        let search = try KOBISDecoder.peopleList(try Self.recorded("peoplelist-default.json"), page: 1)
        #expect(search.total == 189_403 && search.page == 1 && search.people.count == 10)
        let first = search.people[0]
        #expect(first.peopleCode == "20350945" && first.name == "김교영")
        #expect(first.nameEnglish == nil && first.role == "의상" && first.filmography == ["기억의 재구성"])
    }

    @Test(
        "the recorded person: sex normalised, empty homepages, filmography with parts",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func recordedPerson() throws {
        let person = try KOBISDecoder.peopleInfo(try Self.recorded("peopleinfo-20164556.json"), peopleCode: "20164556")
        #expect(person.name == "김종현" && person.nameEnglish == "Kim Hong-hyeon" && person.sex == .male)
        #expect(person.role == "기획진행" && person.homepages.isEmpty)
        #expect(
            person.filmography == [
                Person.Film(movieCode: "20080394", title: "비스티 보이즈", part: "기획진행"),
                Person.Film(movieCode: "20070072", title: "우아한 세계", part: "제작팀"),
            ])
        #expect(person.source == Self.source)
    }

    @Test(
        "the recorded company list: comma-joined parts and titles, a trailing space trimmed",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func recordedCompanyList() throws {
        let search = try KOBISDecoder.companyList(try Self.recorded("companylist-default.json"), page: 1)
        #expect(search.total == 12_271 && search.companies.count == 10)
        #expect(search.companies[0].parts == ["제작사"] && search.companies[0].filmography.isEmpty)
        #expect(search.companies[0].nameEnglish == nil && search.companies[0].ceo == "원태웅")
        let cj = search.companies[6]
        #expect(cj.companyCode == "20203082" && cj.parts == ["제작사", "배급사"] && cj.filmography.count == 4)
        #expect(search.companies[8].ceo == nil)
        #expect(search.companies[9].nameEnglish == "JC2M International inc.")
    }

    @Test(
        "the recorded company: one film per movie code with every part, in KOBIS's order",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func recordedCompany() throws {
        let company = try KOBISDecoder.companyInfo(
            try Self.recorded("companyinfo-20122497.json"), companyCode: "20122497")
        #expect(company.name == "(유)조이앤컨텐츠그룹" && company.nameEnglish == "JOY N CONTENTS GROUP")
        #expect(company.ceo == "최광래" && company.parts == ["제작사", "배급사", "수입사"])
        #expect(company.filmography[0].movieCode == "20173021" && company.filmography[0].parts == ["배급사", "수입사"])
        let codes = company.filmography.map(\.movieCode)
        #expect(Set(codes).count == codes.count)
    }

    @Test(
        "the recorded regions: no wrapper, no source, empty English names",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func recordedRegions() throws {
        let list = try KOBISDecoder.codeList(try Self.recorded("codelist-0105000000-regions.json"), kind: .region)
        #expect(list.codes.count == 17)
        #expect(list.codes[0].code == "0105001" && list.codes[0].name == "서울시" && list.codes[0].nameEnglish == nil)
        #expect(list.codes.map(\.code) == Region.all.map(\.code))
        #expect(list.codes.map(\.name) == Region.all.map(\.name))
    }

    @Test("every people, company and code fixture decodes", arguments: Self.fixtureNames)
    func fixtures(name: String) throws {
        let fetched = try Self.fixture(name)
        if name.hasPrefix("people-search-") {
            #expect(try !KOBISDecoder.peopleList(fetched, page: 1).people.isEmpty)
        } else if name.hasPrefix("people-") {
            let person = try KOBISDecoder.peopleInfo(fetched, peopleCode: "")
            #expect(!person.filmography.isEmpty && !person.name.isEmpty)
        } else if name.hasPrefix("company-search-") {
            #expect(try !KOBISDecoder.companyList(fetched, page: 1).companies.isEmpty)
        } else if name.hasPrefix("company-") {
            let company = try KOBISDecoder.companyInfo(fetched, companyCode: "")
            #expect(!company.filmography.isEmpty && company.parts.contains("배급사"))
        } else {
            let comCode = String(name.dropFirst("codes-".count).dropLast(".json".count))
            let kind = try #require(CodeKind.allCases.first { $0.comCode == comCode })
            #expect(try !KOBISDecoder.codeList(fetched, kind: kind).codes.isEmpty)
        }
    }

    static let fixtureNames: [String] = {
        let folder = SharedData.repositoryRoot.appending(path: "Fixtures/upstream/kobis")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path())) ?? []
        return names.filter { $0.hasPrefix("people-") || $0.hasPrefix("company-") || $0.hasPrefix("codes-") }.sorted()
    }()

    @Test("every code list kind has a fixture")
    func everyKindRecorded() {
        for kind in CodeKind.allCases {
            #expect(Self.fixtureNames.contains("codes-\(kind.comCode).json"), "\(kind)")
        }
    }

    @Test("sex: 남자/여자 and the English words; blank or anything else unknown")
    func sex() throws {
        func sex(_ text: String) throws -> Person.Sex? {
            try KOBISDecoder.peopleInfo(
                Self.fetched(
                    #"{"peopleInfoResult":{"peopleInfo":{"peopleCd":"1","peopleNm":"가","sex":"\#(text)","filmos":[],"homepages":[]}}}"#
                ), peopleCode: "1"
            ).sex
        }
        #expect(try sex("남자") == .male && sex("여자") == .female && sex("Female") == .female)
        #expect(try sex("") == nil && sex("기타") == nil)
    }

    @Test("homepages as objects or strings, blanks dropped; filmoNames split on | and trimmed")
    func joinedLists() throws {
        let person = try KOBISDecoder.peopleInfo(
            Self.fetched(
                #"{"peopleInfoResult":{"peopleInfo":{"peopleCd":"1","peopleNm":"가","homepages":[{"homeUrl":"http://a"},{"homeUrl":""},"http://b"],"filmos":[]}}}"#
            ), peopleCode: "1")
        #expect(person.homepages == ["http://a", "http://b"])
        let search = try KOBISDecoder.peopleList(
            Self.fetched(
                #"{"peopleListResult":{"totCnt":"1","peopleList":[{"peopleCd":"1","peopleNm":"가","peopleNmEn":"","repRoleNm":"감독","filmoNames":"괴물| 마더 ||기생충 "}]}}"#
            ), page: 2)
        #expect(search.people[0].filmography == ["괴물", "마더", "기생충"] && search.page == 2 && search.total == 1)
    }

    @Test("an empty or missing info is not_found with the code; faultInfo is upstream_rejected")
    func errors() throws {
        #expect {
            try KOBISDecoder.peopleInfo(Self.fetched(#"{"peopleInfoResult":{"peopleInfo":{}}}"#), peopleCode: "777")
        } throws: { ($0 as? BoxOfficeError)?.reason == .notFound && ($0 as? BoxOfficeError)?.peopleCode == "777" }
        #expect {
            try KOBISDecoder.companyInfo(Self.fetched(#"{"companyInfoResult":{}}"#), companyCode: "888")
        } throws: { ($0 as? BoxOfficeError)?.reason == .notFound && ($0 as? BoxOfficeError)?.companyCode == "888" }
        #expect {
            try KOBISDecoder.codeList(
                Self.fetched(#"{"faultInfo":{"message":"잘못된 코드","errorCode":"320999"}}"#), kind: .genre)
        } throws: { ($0 as? BoxOfficeError)?.reason == .upstreamRejected }
        #expect {
            try KOBISDecoder.peopleList(Self.fetched(#"{"peopleListResult":{"totCnt":"x","peopleList":[]}}"#), page: 1)
        } throws: { ($0 as? BoxOfficeError)?.path == "/peopleListResult/totCnt" }
    }

    @Test("what the cache keeps: a malformed person, company or list is not kept; an unknown code and a good body are")
    func usableBodies() {
        func usable(_ path: String, _ parameters: [String: String], _ body: String) -> Bool {
            UsableBody.check(
                UpstreamCall(service: .kobis, path: path, parameters: parameters), Self.fetched(body))
        }
        let person = ["peopleCd": "1"]
        #expect(!usable(KOBISPaths.peopleInfo, person, #"{"peopleInfoResult":{"peopleInfo":{"peopleNm":"가"}}}"#))
        #expect(usable(KOBISPaths.peopleInfo, person, #"{"peopleInfoResult":{"peopleInfo":{}}}"#), "not_found")
        #expect(
            usable(
                KOBISPaths.peopleInfo, person,
                #"{"peopleInfoResult":{"peopleInfo":{"peopleCd":"1","peopleNm":"가","filmos":[],"homepages":[]}}}"#))
        let company = ["companyCd": "1"]
        #expect(!usable(KOBISPaths.companyInfo, company, #"{"companyInfoResult":{"companyInfo":{"companyNm":"가"}}}"#))
        #expect(usable(KOBISPaths.companyInfo, company, #"{"companyInfoResult":{"companyInfo":{}}}"#), "not_found")
        let list = ["curPage": "1", "itemPerPage": "10"]
        #expect(!usable(KOBISPaths.peopleList, list, #"{"peopleListResult":{"totCnt":"x","peopleList":[]}}"#))
        #expect(usable(KOBISPaths.peopleList, list, #"{"peopleListResult":{"totCnt":"0","peopleList":[]}}"#))
        #expect(!usable(KOBISPaths.companyList, list, #"{"companyListResult":{"companyList":[]}}"#))
        let genres = ["comCode": CodeKind.genre.comCode]
        #expect(!usable(KOBISPaths.codeList, genres, #"{"codes":[]}"#), "an empty list: a comCode KOBIS does not know")
        #expect(!usable(KOBISPaths.codeList, genres, #"{"codes":[{"fullCd":"1"}]}"#))
        #expect(usable(KOBISPaths.codeList, genres, #"{"codes":[{"fullCd":"1","korNm":"드라마","engNm":""}]}"#))
    }

    @Test("a record without its code is malformed, not an unknown code; an empty code list is upstream_rejected")
    func recordsWithoutCodes() {
        #expect {
            try KOBISDecoder.peopleInfo(
                Self.fetched(#"{"peopleInfoResult":{"peopleInfo":{"peopleNm":"가"}}}"#), peopleCode: "1")
        } throws: { ($0 as? BoxOfficeError)?.path == "/peopleInfoResult/peopleInfo/peopleCd" }
        #expect {
            try KOBISDecoder.codeList(Self.fetched(#"{"codes":[]}"#), kind: .grade)
        } throws: {
            ($0 as? BoxOfficeError)?.reason == .upstreamRejected
                && ($0 as? BoxOfficeError)?.message.contains("2205") == true
        }
    }

    @Test(
        "a region by code, Korean name, short or official name, or English name; typed on a command line, in any case")
    func regions() {
        #expect(Region.named("0105001")?.code == "0105001")
        #expect(Region.named("서울시")?.code == "0105001" && Region.named("서울")?.code == "0105001")
        #expect(Region.named("Seoul")?.code == "0105001" && Region.named("North Jeolla")?.code == "0105008")
        #expect(Region.named("seoul") == nil && Region.named(" 세종 ") == nil)
        #expect(Region.typed("seoul")?.code == "0105001" && Region.typed("NORTH JEOLLA")?.code == "0105008")
        #expect(Region.named("경기")?.code == "0105002" && Region.typed(" 세종 ")?.code == "0105017")
        #expect(Region.named("충북")?.code == "0105004" && Region.named("경남")?.code == "0105007")
        #expect(Region.typed("부산광역시")?.code == "0105011" && Region.typed("강원특별자치도")?.code == "0105003")
        #expect(Region.named("부산광역시") == nil)
        #expect(Region.named("Mars") == nil && Region.named("0105099") == nil && Region.named("시") == nil)
        #expect(Region.named("충청북") == nil && Region.named("광주광역") == nil)
    }

    @Test("freshness: people and company details 7 days, their searches 1 day, code lists 30 days")
    func freshness() throws {
        let day = try #require(CalendarDate("2026-11-21"))
        func expiry(_ path: String) -> Double? {
            Freshness.expiry(
                of: UpstreamCall(service: .kobis, path: path, parameters: [:]), fetchedAt: 0, fetchedDay: day)
        }
        #expect(expiry(KOBISPaths.peopleInfo) == 7 * 86_400 && expiry(KOBISPaths.companyInfo) == 7 * 86_400)
        #expect(expiry(KOBISPaths.peopleList) == 86_400 && expiry(KOBISPaths.companyList) == 86_400)
        #expect(expiry(KOBISPaths.codeList) == Freshness.codeListSeconds && Freshness.codeListSeconds == 2_592_000)
    }
}
