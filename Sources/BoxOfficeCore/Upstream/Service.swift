/// An upstream service the worker talks to.
package enum Service: String, Sendable, Hashable {
    /// 영화진흥위원회 KOBIS Open API: box office, movie info, movie list.
    case kobis
    /// Kakao (Daum) image search: posters.
    case kakao
}
