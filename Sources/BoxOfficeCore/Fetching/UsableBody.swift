/// Whether a body an upstream sent for a call can be read as that call's answer: what the cache keeps must be.
///
/// A body that parses as JSON but fails to decode (a `rankInten` of `"NaN"`, a missing list) was kept once and then
/// answered `upstream_malformed` to every later request, and to every new worker sharing the store, until someone
/// asked with `refresh: true`. Such a body is now not stored at all, in memory or in the store: the request that
/// got it fails with the decoding error, and the next one asks upstream again. Errors that are answers
/// (`not_found` for an unknown movie code) are kept as before.
package enum UsableBody {
    /// False only when decoding the body as `call`'s answer fails as malformed (or is an empty code list, which no
    /// kind has: a comCode KOBIS does not know). A box office or a lookup's value decoded here is kept in `fetched`'s
    /// derived values, for the request that fetched it and the ones after it.
    package static func check(_ call: UpstreamCall, _ fetched: Fetched) -> Bool {
        do throws(BoxOfficeError) {
            switch call.path {
            case KOBISPaths.daily:
                _ = try DecodedBoxOffice.of(fetched, period: nil)
            case KOBISPaths.weekly:
                let period = WeekPeriod.allCases.first { $0.weekGb == call.parameters["weekGb"] } ?? .weekend
                _ = try DecodedBoxOffice.of(fetched, period: period)
            case KOBISPaths.movieInfo:
                _ = try Lookup<Movie>.movie(call.parameters["movieCd"] ?? "").value(fetched)
            case KOBISPaths.peopleInfo:
                _ = try Lookup<Person>.person(call.parameters["peopleCd"] ?? "").value(fetched)
            case KOBISPaths.companyInfo:
                _ = try Lookup<Company>.company(call.parameters["companyCd"] ?? "").value(fetched)
            case KOBISPaths.codeList:
                guard let kind = CodeKind.allCases.first(where: { $0.comCode == call.parameters["comCode"] }) else {
                    return true
                }
                // A faultInfo never gets here (it is not an answer), so a rejection is the empty list.
                do {
                    _ = try Lookup<CodeList>.codes(kind).value(fetched)
                } catch  where error.reason == .upstreamRejected {
                    return false
                }
            case KOBISPaths.movieList:
                _ = try KOBISDecoder.movieList(fetched, page: page(call))
            case KOBISPaths.peopleList:
                _ = try KOBISDecoder.peopleList(fetched, page: page(call))
            case KOBISPaths.companyList:
                _ = try KOBISDecoder.companyList(fetched, page: page(call))
            case KakaoPaths.image:
                _ = try KakaoDecoder.imageSearch(fetched, query: call.parameters["query"] ?? "")
            default:
                return true
            }
            return true
        } catch {
            return error.reason != .upstreamMalformed
        }
    }

    private static func page(_ call: UpstreamCall) -> Int {
        call.parameters["curPage"].flatMap { Int($0) } ?? 1
    }
}
