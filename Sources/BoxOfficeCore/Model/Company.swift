/// A company's KOBIS record (company info), normalized: trimmed strings, empty scalars as nil, and one filmography
/// entry per film.
package struct Company: Sendable, Hashable {
    /// One film of a company's filmography with every part the company had in it (제작사, 배급사, 수입사, …).
    /// KOBIS lists one row per part; they are merged here, in the order KOBIS lists them.
    package struct Film: Sendable, Hashable {
        package var movieCode: String
        package var title: String
        package var parts: [String]
    }

    package var companyCode: String
    package var name: String
    package var nameEnglish: String?
    /// The CEO (`ceoNm`), when KOBIS knows one.
    package var ceo: String?
    /// What kinds of company it is (제작사, 배급사, …).
    package var parts: [String]
    package var filmography: [Film]
    package var source: Source
}

/// One page of KOBIS company search results.
package struct CompanySearch: Sendable, Hashable {
    package var total: Int
    package var page: Int
    package var companies: [Found]
    package var source: Source

    package struct Found: Sendable, Hashable {
        package var companyCode: String
        package var name: String
        package var nameEnglish: String?
        package var ceo: String?
        /// KOBIS `companyPartNames`, comma-joined upstream.
        package var parts: [String]
        /// Titles (KOBIS `filmoNames`, comma-joined upstream for companies, unlike people's `|`).
        package var filmography: [String]
    }
}
