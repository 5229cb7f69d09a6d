/// The first image result of a poster search.
package struct PosterSearch: Sendable, Hashable {
    package var query: String
    package var image: Image?

    package struct Image: Sendable, Hashable {
        package var url: String
        package var thumbnailUrl: String
        package var width: Int
        package var height: Int
        package var site: String?
        package var documentUrl: String?
        package var collection: String?
        package var postedAt: String?
    }
}
