import JSONCore

/// The Kakao endpoint, relative to its base URL.
package enum KakaoPaths {
    package static let image = "/v2/search/image"
}
