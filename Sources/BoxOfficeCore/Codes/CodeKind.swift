/// The KOBIS code lists (`code/searchCodeList.json`), each by its `comCode`.
///
/// Checked against what is known of each:
/// - `region` `0105000000`: verified, a recorded body (`codelist-0105000000-regions.json`), and the `wideAreaCd` of
///   the box office calls;
/// - `nation` `2204` and `type` `2201`: the KOBIS documentation names them (the movie list's `repNationCd` and
///   `movieTypeCd` take their codes), and public clients call `2204`; no body is recorded;
/// - `companyPart` `2601`: the documentation's value for the company list's `companyPartCd`, unverified;
/// - `status` `2202`, `genre` `2203`, `grade` `2205`: no source names these; they follow the `22xx` family of the
///   documented film codes and are unverified. A wrong one is KOBIS's `faultInfo` (`upstream_rejected`), never a
///   silent empty list.
package enum CodeKind: String, Sendable, Hashable, CaseIterable {
    case region, nation, type, genre, status, grade, companyPart

    package var comCode: String {
        switch self {
        case .region: "0105000000"
        case .nation: "2204"
        case .type: "2201"
        case .status: "2202"
        case .genre: "2203"
        case .grade: "2205"
        case .companyPart: "2601"
        }
    }
}

/// One KOBIS code list.
package struct CodeList: Sendable, Hashable {
    package struct Code: Sendable, Hashable {
        package var code: String
        package var name: String
        package var nameEnglish: String?
    }

    package var kind: CodeKind
    package var codes: [Code]
    package var source: Source
}
