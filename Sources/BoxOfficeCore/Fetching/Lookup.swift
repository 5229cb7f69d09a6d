/// A question answered by one upstream call and its decoding: a movie's, a person's or a company's details, a code
/// list. As data, so the service can answer it at once from memory (``BoxOfficeService/inMemory(_:)``) or through the
/// whole chain (``BoxOfficeService/fetch(_:)``), and a caller can key what it keeps by the body's serial.
package struct Lookup<Value: Sourced>: Sendable {
    package let call: UpstreamCall
    let decode: @Sendable (Fetched) throws(BoxOfficeError) -> Value

    init(_ call: UpstreamCall, decode: @escaping @Sendable (Fetched) throws(BoxOfficeError) -> Value) {
        self.call = call
        self.decode = decode
    }

    /// The value in `fetched`, with this fetch's source: decoded once per body the memory tier keeps
    /// (``DerivedValues``), else decoded now.
    func value(_ fetched: Fetched) throws(BoxOfficeError) -> Value {
        guard let derived = fetched.derived else { return try decode(fetched) }
        var value = try derived.value { () throws(BoxOfficeError) in try decode(fetched) }
        value.source = fetched.source
        return value
    }

    /// The details of a movie (KOBIS movie info).
    package static func movie(_ code: String, refresh: Bool = false) -> Lookup<Movie> {
        Lookup<Movie>(BoxOfficeService.movieCall(code, refresh: refresh)) { fetched throws(BoxOfficeError) in
            try KOBISDecoder.movieInfo(fetched, movieCode: code)
        }
    }

    /// A person's record (KOBIS people info).
    package static func person(_ code: String, refresh: Bool = false) -> Lookup<Person> {
        Lookup<Person>(
            UpstreamCall(
                service: .kobis, path: KOBISPaths.peopleInfo, parameters: ["peopleCd": code], refresh: refresh)
        ) { fetched throws(BoxOfficeError) in
            try KOBISDecoder.peopleInfo(fetched, peopleCode: code)
        }
    }

    /// A company's record (KOBIS company info).
    package static func company(_ code: String, refresh: Bool = false) -> Lookup<Company> {
        Lookup<Company>(
            UpstreamCall(
                service: .kobis, path: KOBISPaths.companyInfo, parameters: ["companyCd": code], refresh: refresh)
        ) { fetched throws(BoxOfficeError) in
            try KOBISDecoder.companyInfo(fetched, companyCode: code)
        }
    }

    /// A code list. KOBIS leaves the regions' English names empty; they are filled from ``Region`` (the names
    /// `area` takes), so the list shows every name a box office request accepts.
    package static func codes(_ kind: CodeKind, refresh: Bool = false) -> Lookup<CodeList> {
        Lookup<CodeList>(
            UpstreamCall(
                service: .kobis, path: KOBISPaths.codeList, parameters: ["comCode": kind.comCode], refresh: refresh)
        ) { fetched throws(BoxOfficeError) in
            var list = try KOBISDecoder.codeList(fetched, kind: kind)
            if kind == .region {
                for index in list.codes.indices where list.codes[index].nameEnglish == nil {
                    list.codes[index].nameEnglish = Region.all.first { $0.code == list.codes[index].code }?.nameEnglish
                }
            }
            return list
        }
    }
}

extension BoxOfficeService {
    /// The lookup's answer when its body is fresh in the memory tier, at once: its value, or the error the body
    /// is (an unknown code's `not_found`: a malformed body is never kept); nil when answering needs to wait.
    package func inMemory<Value>(_ lookup: Lookup<Value>) -> Result<BodyBacked<Value>, BoxOfficeError>? {
        guard let fetched = cache?.inMemory(lookup.call) else { return nil }
        do throws(BoxOfficeError) {
            return .success(BodyBacked(try lookup.value(fetched), body: fetched.derived?.serial))
        } catch {
            return .failure(error)
        }
    }

    /// The lookup's answer through the whole fetcher chain.
    package func fetch<Value>(_ lookup: Lookup<Value>) async throws(BoxOfficeError) -> BodyBacked<Value> {
        let fetched = try await fetcher.fetch(lookup.call)
        return BodyBacked(try lookup.value(fetched), body: fetched.derived?.serial)
    }
}
