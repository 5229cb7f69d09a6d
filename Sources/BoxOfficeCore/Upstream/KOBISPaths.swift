import JSONCore

/// The KOBIS endpoints, relative to the base URL.
package enum KOBISPaths {
    package static let daily = "/boxoffice/searchDailyBoxOfficeList.json"
    package static let weekly = "/boxoffice/searchWeeklyBoxOfficeList.json"
    package static let movieInfo = "/movie/searchMovieInfo.json"
    package static let movieList = "/movie/searchMovieList.json"
}
