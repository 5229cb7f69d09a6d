/// A person's KOBIS record (people info), normalized: trimmed strings, empty scalars as nil.
package struct Person: Sendable, Hashable {
    package enum Sex: String, Sendable, Hashable {
        case male, female

        /// KOBIS writes 남자/여자 (`""` when unknown); the English words are taken too.
        init?(kobis text: String) {
            switch text.lowercased() {
            case "남자", "남", "male", "m": self = .male
            case "여자", "여", "female", "f": self = .female
            default: return nil
            }
        }
    }

    /// One film of a person's filmography, with the person's part in it (감독, 각본, 배우, …). A film appears once
    /// per part: KOBIS lists a director who also wrote the film twice.
    package struct Film: Sendable, Hashable {
        package var movieCode: String
        package var title: String
        package var part: String?

        package init(movieCode: String, title: String, part: String?) {
            self.movieCode = movieCode
            self.title = title
            self.part = part
        }
    }

    package var peopleCode: String
    package var name: String
    package var nameEnglish: String?
    package var sex: Sex?
    /// The representative role KOBIS gives the person (`repRoleNm`).
    package var role: String?
    package var homepages: [String]
    package var filmography: [Film]
    package var source: Source

    /// Each film once, in filmography order (a film the person had two parts in is one detail to fetch).
    package var movieCodes: [String] {
        var seen = Set<String>()
        return filmography.map(\.movieCode).filter { seen.insert($0).inserted }
    }
}

/// One page of KOBIS people search results.
package struct PeopleSearch: Sendable, Hashable {
    package var total: Int
    package var page: Int
    package var people: [Found]
    package var source: Source

    package struct Found: Sendable, Hashable {
        package var peopleCode: String
        package var name: String
        package var nameEnglish: String?
        package var role: String?
        /// Titles (KOBIS `filmoNames`, `|`-joined upstream).
        package var filmography: [String]
    }
}
