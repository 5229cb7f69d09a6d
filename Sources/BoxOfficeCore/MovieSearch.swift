/// One page of KOBIS movie search results.
public struct MovieSearch: Sendable, Hashable {
    public var total: Int
    public var page: Int
    public var movies: [Found]

    public struct Found: Sendable, Hashable {
        public var movieCode: String
        public var title: String
        public var titleEnglish: String?
        public var productionYear: Int?
        public var openDate: CalendarDate?
        public var type: String?
        public var status: String?
        public var nations: [String]
        public var genres: [String]
        public var directors: [String]
    }
}

/// The first image result of a poster search.
public struct PosterSearch: Sendable, Hashable {
    public var query: String
    public var image: Image?

    public struct Image: Sendable, Hashable {
        public var url: String
        public var thumbnailUrl: String
        public var width: Int
        public var height: Int
        public var site: String?
        public var documentUrl: String?
        public var collection: String?
        public var postedAt: String?
    }
}
