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

        package init(
            movieCode: String, title: String, titleEnglish: String? = nil, productionYear: Int? = nil,
            openDate: CalendarDate? = nil, type: String? = nil, status: String? = nil, nations: [String] = [],
            genres: [String] = [], directors: [String] = []
        ) {
            (self.movieCode, self.title, self.titleEnglish, self.productionYear) = (
                movieCode, title, titleEnglish, productionYear
            )
            (self.openDate, self.type, self.status, self.nations) = (openDate, type, status, nations)
            (self.genres, self.directors) = (genres, directors)
        }
    }
}
