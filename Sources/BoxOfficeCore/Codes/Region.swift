/// The 17 wide areas a box office can be filtered by (`wideAreaCd`), known without asking KOBIS: the `area` of a box
/// office request is resolved from a code, a Korean name or an English name before any call is made, so a wrong
/// one is refused at once, with the list.
///
/// Codes and Korean names are KOBIS's (the recorded code list `0105000000`); KOBIS gives no English names (`engNm`
/// is empty), so these are ours, the common romanizations. Besides KOBIS's name, each region answers to the names
/// people write: the name without its 시/도 (서울, 경기) and the two-syllable short form of a province (충북, 경남).
/// The official name (서울특별시, 부산광역시, 강원특별자치도, 세종특별자치시) is taken on the command line only: every
/// value the wire takes is spelled out in the params schemas' description, which an MCP tool lists in place of the
/// enum, and the official names would take `boxoffice_daily` past its `tools/list` budget.
package struct Region: Sendable, Hashable {
    package let code: String
    package let name: String
    package let nameEnglish: String
    /// Other Korean names it answers to.
    let aliases: [String]
    /// Its official name, for ``typed(_:)``.
    let officialName: String?

    init(code: String, name: String, nameEnglish: String, aliases: [String], officialName: String? = nil) {
        self.code = code
        self.name = name
        self.nameEnglish = nameEnglish
        self.aliases = aliases
        self.officialName = officialName
    }

    package static let all: [Region] = [
        Region(code: "0105001", name: "서울시", nameEnglish: "Seoul", aliases: ["서울"], officialName: "서울특별시"),
        Region(code: "0105002", name: "경기도", nameEnglish: "Gyeonggi", aliases: ["경기"]),
        Region(code: "0105003", name: "강원도", nameEnglish: "Gangwon", aliases: ["강원"], officialName: "강원특별자치도"),
        Region(code: "0105004", name: "충청북도", nameEnglish: "North Chungcheong", aliases: ["충북"]),
        Region(code: "0105005", name: "충청남도", nameEnglish: "South Chungcheong", aliases: ["충남"]),
        Region(code: "0105006", name: "경상북도", nameEnglish: "North Gyeongsang", aliases: ["경북"]),
        Region(code: "0105007", name: "경상남도", nameEnglish: "South Gyeongsang", aliases: ["경남"]),
        Region(code: "0105008", name: "전라북도", nameEnglish: "North Jeolla", aliases: ["전북"], officialName: "전북특별자치도"),
        Region(code: "0105009", name: "전라남도", nameEnglish: "South Jeolla", aliases: ["전남"]),
        Region(code: "0105010", name: "제주도", nameEnglish: "Jeju", aliases: ["제주"], officialName: "제주특별자치도"),
        Region(code: "0105011", name: "부산시", nameEnglish: "Busan", aliases: ["부산"], officialName: "부산광역시"),
        Region(code: "0105012", name: "대구시", nameEnglish: "Daegu", aliases: ["대구"], officialName: "대구광역시"),
        Region(code: "0105013", name: "대전시", nameEnglish: "Daejeon", aliases: ["대전"], officialName: "대전광역시"),
        Region(code: "0105014", name: "울산시", nameEnglish: "Ulsan", aliases: ["울산"], officialName: "울산광역시"),
        Region(code: "0105015", name: "인천시", nameEnglish: "Incheon", aliases: ["인천"], officialName: "인천광역시"),
        Region(code: "0105016", name: "광주시", nameEnglish: "Gwangju", aliases: ["광주"], officialName: "광주광역시"),
        Region(code: "0105017", name: "세종시", nameEnglish: "Sejong", aliases: ["세종"], officialName: "세종특별자치시"),
    ]

    /// The region a request's `area` names: exactly one of ``accepted`` (its code, its Korean name, one of its
    /// other Korean names, or its English name as written here); nil when none. Exact, because the params schema
    /// lists these values as its `enum`: a value the schema accepts is never refused here, and the reverse.
    package static func named(_ text: String) -> Region? {
        all.first { $0.spellings.contains(text) }
    }

    /// The region a person typed on the command line: as ``named(_:)``, and also by its official name (서울특별시),
    /// with spaces around it or an English name in any case (`seoul`, `NORTH JEOLLA`). The CLI sends the region's
    /// code on.
    package static func typed(_ text: String) -> Region? {
        let text = text.trimmingSpaces
        let lowered = text.lowercased()
        return named(text)
            ?? all.first { $0.officialName == text || $0.nameEnglish.lowercased() == lowered }
    }

    /// Every way this region may be named in a request.
    var spellings: [String] { [code, name] + aliases + [nameEnglish] }

    /// Every value `area` takes, region by region: the params schemas' `enum`, generated from this table
    /// (`PeopleMethodsTests.areaSchemaIsTheRegionTable` holds `Schemas/` to it).
    package static var accepted: [String] { all.flatMap(\.spellings) }

    /// "0105001 서울시 Seoul, 0105004 충청북도 (충북) North Chungcheong, …": every accepted value, as the params
    /// schemas' description spells them out. An MCP tool lists the description instead of the enum, so every value
    /// must be in it; a short name that is already part of the region's name (서울 in 서울시) is not written twice,
    /// which keeps `tools/list` within its budget.
    package static var listed: String {
        all.map { region in
            let shown = region.aliases.filter { !region.name.contains($0) }
            return
                "\(region.code) \(region.name)\(shown.isEmpty ? "" : " (\(shown.joined(separator: ", ")))") \(region.nameEnglish)"
        }.joined(separator: ", ")
    }

    /// The `area` member of the box office methods' params schemas.
    package static var schemaDescription: String {
        "A region by code, Korean name (also 서울, 경기) or English name: \(listed). Absent: the whole country."
    }
}
