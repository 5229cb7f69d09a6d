import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeWorker
import JSONCore
import JSONSchema
import TestSupport
import Testing
import WorkerTestSupport

/// `people.*`, `company.*` and `codes.list` in process, offline: their results against their result schemas, what
/// `include: ["movies"]` adds, the error table, and `area` by name.
@Suite("People, companies and code lists")
struct PeopleMethodsTests {
    static let arguments = ["--ordered", "--today", "2026-11-21"]

    static let calls: [(String, JSONValue)] =
        [
            ("people.search", [:]), ("people.search", ["name": "장항준"]), ("people.detail", ["peopleCode": "20164556"]),
            ("people.detail", ["peopleCode": "90000005", "include": ["movies"]]),
            ("people.detail", ["peopleCode": "20164556", "include": ["movies"]]), ("company.search", [:]),
            ("company.search", ["name": "(주)쇼박스"]), ("company.detail", ["companyCode": "20122497"]),
            ("company.detail", ["companyCode": "20100603"]),
        ] + CodeKind.allCases.map { ("codes.list", ["kind": .string($0.rawValue)]) }

    @Test("every call answers from the fixtures, valid against its result schema")
    func resultsValidate() async throws {
        let lines = Self.calls.enumerated().map { request(.int($0.offset), $0.element.0, params: $0.element.1) }
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(lines)
        #expect(out.count == Self.calls.count)
        for (index, call) in Self.calls.enumerated() {
            let result = try #require(out[index]["result"], "\(call): \(out[index])")
            let schema = try SchemaCatalog.compiled("\(call.0).result.schema.json")
            #expect(schema.validate(result).isEmpty, "\(call): \(schema.validate(result))")
            #expect(result[at: "/source/origin"] == "fixture")
        }
        #expect(out[1][at: "/result/people/0/peopleCode"] == "90000005")
        #expect(out[2][at: "/result/sex"] == "male" && out[2][at: "/result/filmography/1/part"] == "제작팀")
        // 장항준's film is recorded: its detail comes with it; 김종현's are not: each film stands with its error.
        #expect(out[3][at: "/result/filmography/0/movie/title"] == "리바운드")
        #expect(out[3][at: "/result/filmography/0/errors"] == nil)
        let unrecorded = try #require(out[4][at: "/result/filmography"]?.arrayValue)
        #expect(
            unrecorded.allSatisfy {
                $0["movie"] == .null && $0[at: "/errors/0/data/reason"] == "offline_unavailable"
                    && $0[at: "/errors/0/part"] == "movie"
            })
        #expect(out[7][at: "/result/filmography/0/parts"] == ["배급사", "수입사"])
        #expect(out[9][at: "/result/comCode"] == "0105000000" && out[9][at: "/result/codes/0/nameEnglish"] == "Seoul")
    }

    @Test("without include, no filmography entry has movie or errors")
    func noIncludeNoMovies() async throws {
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(
            [request(1, "people.detail", params: ["peopleCode": "90000005"])])
        let films = try #require(out[0][at: "/result/filmography"]?.arrayValue)
        #expect(!films.isEmpty && films.allSatisfy { $0["movie"] == nil && $0["errors"] == nil })
    }

    @Test("the error table: bad params are -32602 at their pointer; unrecorded codes are offline_unavailable")
    func errors() async throws {
        let refused: [(String, JSONValue, String)] = [
            ("people.search", ["limit": 101], "/limit"), ("people.search", ["page": 0], "/page"),
            ("people.search", ["name": ""], "/name"), ("people.detail", [:], ""),
            ("people.detail", ["peopleCode": "a b"], "/peopleCode"),
            ("people.detail", ["peopleCode": "1", "include": ["poster"]], "/include/0"),
            ("company.search", ["part": "x-y"], "/part"), ("company.detail", ["companyCode": 1], "/companyCode"),
            ("codes.list", ["kind": "planets"], "/kind"), ("codes.list", [:], ""),
            ("boxoffice.daily", ["area": "Mars"], "/area"), ("boxoffice.weekly", ["area": "0105099"], "/area"),
        ]
        let lines = refused.enumerated().map { request(.int($0.offset), $0.element.0, params: $0.element.1) }
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(lines)
        for (index, call) in refused.enumerated() {
            #expect(out[index][at: "/error/code"] == -32602, "\(call): \(out[index])")
            #expect(
                out[index][at: "/error/data/errors/0/instanceLocation"] == .string(call.2), "\(call): \(out[index])")
        }
        #expect(out[10][at: "/error/data/errors/0/keywordLocation"] == "/properties/area/enum")
        #expect(out[10][at: "/error/message"]?.stringValue?.contains(#""0105017", "세종시""#) == true)

        let missing = try await OfflineWorker(Self.arguments).jsonRPC.json(
            [
                request(1, "people.detail", params: ["peopleCode": "11111111"]),
                request(2, "company.detail", params: ["companyCode": "11111111"]),
                request(3, "people.search", params: ["name": "봉준호"]),
            ])
        #expect(missing.allSatisfy { $0[at: "/error/code"] == -31006 })
        #expect(missing[0][at: "/error/data/available"]?.arrayValue?.contains("90000001") == true)
        #expect(missing[1][at: "/error/data/available"]?.arrayValue?.contains("20122497") == true)
        #expect(missing[2][at: "/error/message"]?.stringValue?.contains("(newest)") == true)
    }

    @Test(
        "area by code, Korean name or English name is accepted on every spelling (offline: the same refusal; the code each sends is checked against the fake upstream in PeopleEndToEndTests)"
    )
    func areaNames() async throws {
        let accepted = ["0105001", "서울시", "서울", "Seoul"]
        let out = try await OfflineWorker(Self.arguments).jsonRPC.json(
            accepted.enumerated().map {
                request(
                    .int($0.offset), "boxoffice.daily", params: ["date": "2023-04-26", "area": .string($0.element)])
            })
        #expect(out.allSatisfy { $0[at: "/error/code"] == -31006 })
        #expect(Set(out.compactMap { $0[at: "/error/message"] }).count == 1)
        // The wire takes exactly the schema's enum: another case or spaces are refused as the schema refuses them
        // (the CLI, for people, turns `seoul` into the code first).
        let refused = try await OfflineWorker(Self.arguments).jsonRPC.json(
            ["SEOUL", " 서울", "seoul", "서울특별시"].enumerated().map {
                request(
                    .int($0.offset), "boxoffice.daily", params: ["date": "2023-04-26", "area": .string($0.element)])
            })
        #expect(refused.allSatisfy { $0[at: "/error/code"] == -32602 }, "\(refused)")
    }

    @Test("the params schemas' area is the region table: every spelling the worker takes, and the list in its words")
    func areaSchemaIsTheRegionTable() throws {
        for method in ["boxoffice.daily", "boxoffice.weekly"] {
            let (params, _) = try SchemaCatalog.schemas(for: method)
            let area = params.document[at: "/properties/area"]
            let expected: JSONValue = [
                "type": "string", "enum": .array(Region.accepted.map { .string($0) }),
                "description": .string(Region.schemaDescription),
            ]
            // Schemas/ is written from Region.all: on a change there, paste this member into both params schemas.
            #expect(area == expected, "\(method): the area member should be \(JSONSerializer.string(expected))")
            for value in Region.accepted { #expect(Region.named(value) != nil, "\(value)") }
        }
    }
}
