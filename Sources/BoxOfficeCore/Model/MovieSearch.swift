/// One page of KOBIS movie search results.
package struct MovieSearch: Sendable, Hashable {
    package var total: Int
    package var page: Int
    package var movies: [Found]

    package struct Found: Sendable, Hashable {
        package var movieCode: String
        package var title: String
        package var titleEnglish: String?
        package var productionYear: Int?
        package var openDate: CalendarDate?
        package var type: String?
        package var status: String?
        package var nations: [String]
        package var genres: [String]
        package var directors: [String]
    }
}
