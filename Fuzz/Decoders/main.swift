import BoxOfficeCore
import FuzzSupport

/// The libFuzzer target: every KOBIS and Kakao decoder on the same arbitrary body. A decoder may refuse a body only
/// with a typed ``BoxOfficeError`` that says where (a JSON Pointer) for a malformed one; anything else (a trap, a
/// crash, an untyped failure) is a finding.
let fuzzDecoders: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    guard let data else { return 0 }
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let source = Source(origin: .kobis, fetchedAt: "2026-11-21T00:00:00Z")
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.dailyBoxOffice(body, source: source) }
    for period in WeekPeriod.allCases {
        check { () throws(BoxOfficeError) in _ = try KOBISDecoder.weeklyBoxOffice(body, period: period, source: source)
        }
    }
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.movieInfo(body, movieCode: "20124079", source: source) }
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.movieList(Fetched(body: body, source: source), page: 1) }
    let fetched = Fetched(body: body, source: source)
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.peopleList(fetched, page: 1) }
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.peopleInfo(fetched, peopleCode: "20164556") }
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.companyList(fetched, page: 1) }
    check { () throws(BoxOfficeError) in _ = try KOBISDecoder.companyInfo(fetched, companyCode: "20122497") }
    for kind in CodeKind.allCases {
        check { () throws(BoxOfficeError) in _ = try KOBISDecoder.codeList(fetched, kind: kind) }
    }
    check { () throws(BoxOfficeError) in
        _ = try KakaoDecoder.imageSearch(Fetched(body: body, source: source), query: "광해 영화 포스터")
    }
    _ = KakaoDecoder.errorBody(body, status: 401)
    return 0
}

/// A malformed body must be refused with the place it went wrong.
private func check(_ decode: () throws(BoxOfficeError) -> Void) {
    do {
        try decode()
    } catch {
        if error.reason == .upstreamMalformed && error.path == nil {
            fatalError("a malformed body was refused without a JSON Pointer: \(error.message)")
        }
    }
}

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzDecoders(data, size) }

FuzzDriver.run(fuzzDecoders)
