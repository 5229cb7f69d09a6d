/// The 17 wide areas a box office can be filtered by (`wideAreaCd`), known without asking KOBIS: the `area` of a box
/// office request is resolved from a code, a Korean name or an English name before any call is made, so a wrong
/// one is refused at once, with the list.
///
/// Codes and Korean names are KOBIS's (the recorded code list `0105000000`); KOBIS gives no English names (`engNm`
/// is empty), so these are ours, the common romanizations.
package struct Region: Sendable, Hashable {
    package let code: String
    package let name: String
    package let nameEnglish: String

    package static let all: [Region] = [
        Region(code: "0105001", name: "서울시", nameEnglish: "Seoul"),
        Region(code: "0105002", name: "경기도", nameEnglish: "Gyeonggi"),
        Region(code: "0105003", name: "강원도", nameEnglish: "Gangwon"),
        Region(code: "0105004", name: "충청북도", nameEnglish: "North Chungcheong"),
        Region(code: "0105005", name: "충청남도", nameEnglish: "South Chungcheong"),
        Region(code: "0105006", name: "경상북도", nameEnglish: "North Gyeongsang"),
        Region(code: "0105007", name: "경상남도", nameEnglish: "South Gyeongsang"),
        Region(code: "0105008", name: "전라북도", nameEnglish: "North Jeolla"),
        Region(code: "0105009", name: "전라남도", nameEnglish: "South Jeolla"),
        Region(code: "0105010", name: "제주도", nameEnglish: "Jeju"),
        Region(code: "0105011", name: "부산시", nameEnglish: "Busan"),
        Region(code: "0105012", name: "대구시", nameEnglish: "Daegu"),
        Region(code: "0105013", name: "대전시", nameEnglish: "Daejeon"),
        Region(code: "0105014", name: "울산시", nameEnglish: "Ulsan"),
        Region(code: "0105015", name: "인천시", nameEnglish: "Incheon"),
        Region(code: "0105016", name: "광주시", nameEnglish: "Gwangju"),
        Region(code: "0105017", name: "세종시", nameEnglish: "Sejong"),
    ]

    /// The region a text names: its code, its Korean name with or without the 시/도 suffix (서울시, 서울), or its
    /// English name in any case (seoul); nil when none.
    package static func named(_ text: String) -> Region? {
        let text = text.trimmingSpaces
        let lowered = text.lowercased()
        return all.first { region in
            region.code == text || region.name == text || region.name.dropLast() == Substring(text)
                || region.nameEnglish.lowercased() == lowered
        }
    }

    /// "0105001 서울시 (Seoul), …": the list a refusal gives.
    package static var listed: String {
        all.map { "\($0.code) \($0.name) (\($0.nameEnglish))" }.joined(separator: ", ")
    }
}
