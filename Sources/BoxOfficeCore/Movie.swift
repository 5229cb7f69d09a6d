/// A movie's details (KOBIS movie info), normalized: trimmed strings, empty scalars as nil, arrays as arrays.
public struct Movie: Sendable, Hashable {
    public var movieCode: String
    public var title: String
    public var titleEnglish: String?
    public var titleOriginal: String?
    public var productionYear: Int?
    public var openDate: CalendarDate?
    public var runtimeMinutes: Int?
    public var status: String?
    public var type: String?
    public var nations: [String]
    public var genres: [String]
    public var directors: [Person]
    public var actors: [Actor]
    public var showTypes: [ShowType]
    /// KOBIS `audits`, oldest first.
    public var ratings: [Rating]
    public var companies: [Company]
    public var staffs: [Staff]
    public var source: Source

    /// The grade of the most recent rating (KOBIS lists audits oldest first), or nil when there is none.
    public var watchGrade: String? { ratings.last?.grade }

    public struct Person: Sendable, Hashable {
        public var name: String
        public var nameEnglish: String?
    }

    public struct Actor: Sendable, Hashable {
        public var name: String
        public var nameEnglish: String?
        public var role: String?
        public var roleEnglish: String?
    }

    public struct ShowType: Sendable, Hashable {
        public var group: String
        public var name: String
    }

    public struct Rating: Sendable, Hashable {
        public var number: String?
        public var grade: String
    }

    public struct Company: Sendable, Hashable {
        public var code: String
        public var name: String
        public var nameEnglish: String?
        public var role: String?
    }

    public struct Staff: Sendable, Hashable {
        public var name: String
        public var nameEnglish: String?
        public var role: String?
    }
}
