/// The 17 wide areas a box office can be filtered by (`wideAreaCd`), known without asking KOBIS: the `area` of a box
/// office request is resolved from a code, a Korean name or an English name before any call is made, so a wrong
/// one is refused at once, with the list.
///
/// Codes and Korean names are KOBIS's (the recorded code list `0105000000`); KOBIS gives no English names (`engNm`
/// is empty), so these are ours, the common romanizations. Besides KOBIS's name, each region answers to the names
/// people write: the name without its 시/도 (서울, 경기), the two-syllable short form of a province (충북, 경남), and
/// the official name (서울특별시, 부산광역시, 강원특별자치도, 세종특별자치시).
package struct Region: Sendable, Hashable {
    package let code: String
    package let name: String
    package let nameEnglish: String
    /// Other Korean names it answers to.
    let aliases: [String]

    package static let all: [Region] = [
        Region(code: "0105001", name: "서울시", nameEnglish: "Seoul", aliases: ["서울", "서울특별시"]),
        Region(code: "0105002", name: "경기도", nameEnglish: "Gyeonggi", aliases: ["경기"]),
        Region(code: "0105003", name: "강원도", nameEnglish: "Gangwon", aliases: ["강원", "강원특별자치도"]),
        Region(code: "0105004", name: "충청북도", nameEnglish: "North Chungcheong", aliases: ["충북"]),
        Region(code: "0105005", name: "충청남도", nameEnglish: "South Chungcheong", aliases: ["충남"]),
        Region(code: "0105006", name: "경상북도", nameEnglish: "North Gyeongsang", aliases: ["경북"]),
        Region(code: "0105007", name: "경상남도", nameEnglish: "South Gyeongsang", aliases: ["경남"]),
        Region(code: "0105008", name: "전라북도", nameEnglish: "North Jeolla", aliases: ["전북", "전북특별자치도"]),
        Region(code: "0105009", name: "전라남도", nameEnglish: "South Jeolla", aliases: ["전남"]),
        Region(code: "0105010", name: "제주도", nameEnglish: "Jeju", aliases: ["제주", "제주특별자치도"]),
        Region(code: "0105011", name: "부산시", nameEnglish: "Busan", aliases: ["부산", "부산광역시"]),
        Region(code: "0105012", name: "대구시", nameEnglish: "Daegu", aliases: ["대구", "대구광역시"]),
        Region(code: "0105013", name: "대전시", nameEnglish: "Daejeon", aliases: ["대전", "대전광역시"]),
        Region(code: "0105014", name: "울산시", nameEnglish: "Ulsan", aliases: ["울산", "울산광역시"]),
        Region(code: "0105015", name: "인천시", nameEnglish: "Incheon", aliases: ["인천", "인천광역시"]),
        Region(code: "0105016", name: "광주시", nameEnglish: "Gwangju", aliases: ["광주", "광주광역시"]),
        Region(code: "0105017", name: "세종시", nameEnglish: "Sejong", aliases: ["세종", "세종특별자치시"]),
    ]

    /// The region a text names: its code, its Korean name or one of its other names (서울, 충북, 부산광역시), or its
    /// English name in any case (seoul); nil when none.
    package static func named(_ text: String) -> Region? {
        let text = text.trimmingSpaces
        let lowered = text.lowercased()
        return all.first { region in
            region.code == text || region.name == text || region.aliases.contains(text)
                || region.nameEnglish.lowercased() == lowered
        }
    }

    /// "0105001 서울시 (Seoul), …": the list a refusal gives.
    package static var listed: String {
        all.map { "\($0.code) \($0.name) (\($0.nameEnglish))" }.joined(separator: ", ")
    }
}
