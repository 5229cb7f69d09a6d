/// A movie's details (KOBIS movie info), normalized: trimmed strings, empty scalars as nil, arrays as arrays.
package struct Movie: Sendable, Hashable {
    package var movieCode: String
    package var title: String
    package var titleEnglish: String?
    package var titleOriginal: String?
    package var productionYear: Int?
    package var openDate: CalendarDate?
    package var runtimeMinutes: Int?
    package var status: String?
    package var type: String?
    package var nations: [String]
    package var genres: [String]
    package var directors: [Person]
    package var actors: [Actor]
    package var showTypes: [ShowType]
    /// KOBIS `audits`, oldest first.
    package var ratings: [Rating]
    package var companies: [Company]
    package var staffs: [Staff]
    package var source: Source

    /// The grade of the most recent rating (KOBIS lists audits oldest first), or nil when there is none.
    package var watchGrade: String? { ratings.last?.grade }

    package struct Person: Sendable, Hashable {
        package var name: String
        package var nameEnglish: String?
    }

    package struct Actor: Sendable, Hashable {
        package var name: String
        package var nameEnglish: String?
        package var role: String?
        package var roleEnglish: String?
    }

    package struct ShowType: Sendable, Hashable {
        package var group: String
        package var name: String
    }

    package struct Rating: Sendable, Hashable {
        package var number: String?
        package var grade: String
    }

    package struct Company: Sendable, Hashable {
        package var code: String
        package var name: String
        package var nameEnglish: String?
        package var role: String?
    }

    package struct Staff: Sendable, Hashable {
        package var name: String
        package var nameEnglish: String?
        package var role: String?
    }
}
