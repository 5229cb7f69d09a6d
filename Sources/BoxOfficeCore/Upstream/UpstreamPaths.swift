import JSONCore

/// The KOBIS endpoints, relative to the base URL.
package enum KOBISPaths {
    package static let daily = "/boxoffice/searchDailyBoxOfficeList.json"
    package static let weekly = "/boxoffice/searchWeeklyBoxOfficeList.json"
    package static let movieInfo = "/movie/searchMovieInfo.json"
    package static let movieList = "/movie/searchMovieList.json"
    package static let peopleList = "/people/searchPeopleList.json"
    package static let peopleInfo = "/people/searchPeopleInfo.json"
    package static let companyList = "/company/searchCompanyList.json"
    package static let companyInfo = "/company/searchCompanyInfo.json"
    package static let codeList = "/code/searchCodeList.json"
}

/// The Kakao endpoint, relative to its base URL.
package enum KakaoPaths {
    package static let image = "/v2/search/image"
}
