import BoxOfficeCore
import BoxOfficeMethods
import JSONCore
import JSONRPC
import Testing

/// A method's params are written in its schema and once more in its input's field list, from which decoding and
/// writing back come; these hold the two to each other, so a param added to one and not the other fails here.
@Suite("Each input's fields are its params schema's properties")
struct InputFieldsTests {
    /// Each method and its input's fields. The two box office methods share one input: `period` is the weekly
    /// one's only.
    static let inputs: [(method: String, fields: [String])] = [
        ("ping", NoInput.fields.map(\.name)), ("worker.status", NoInput.fields.map(\.name)),
        ("rpc.discover", NoInput.fields.map(\.name)),
        ("boxoffice.daily", BoxOfficeMethod.Input.fields.map(\.name).filter { $0 != "period" }),
        ("boxoffice.weekly", BoxOfficeMethod.Input.fields.map(\.name)),
        ("movie.detail", MovieDetailMethod.Input.fields.map(\.name)),
        ("movie.poster", MoviePosterMethod.Input.fields.map(\.name)),
        ("movie.search", MovieSearchMethod.Input.fields.map(\.name)),
        ("people.search", PeopleSearchMethod.Input.fields.map(\.name)),
        ("people.detail", PeopleDetailMethod.Input.fields.map(\.name)),
        ("company.search", CompanySearchMethod.Input.fields.map(\.name)),
        ("company.detail", CompanyDetailMethod.Input.fields.map(\.name)),
        ("codes.list", CodesListMethod.Input.fields.map(\.name)),
        ("movie.run", MovieRunMethod.Input.fields.map(\.name)),
        ("movie.compare", MovieCompareMethod.Input.fields.map(\.name)),
        ("diagnostics.sleep", DiagnosticsSleepMethod.Input.fields.map(\.name)),
        ("diagnostics.fail", NoInput.fields.map(\.name)),
    ]

    @Test("every field is a property of the schema and every property a field (but _meta and the presentations)")
    func fieldsAreTheSchemasProperties() throws {
        for (method, fields) in Self.inputs {
            let document = try SchemaCatalog.document(SchemaCatalog.paramsFile(method))
            let properties = Set(document["properties"]?.objectValue?.keys.map { $0 } ?? [])
            // `_meta` is the protocol's; `chat` and `card` ask the presenter, not the method.
            #expect(Set(fields) == properties.subtracting(["_meta", "chat", "card"]), "\(method)")
            #expect(Set(fields).count == fields.count, "\(method): a field listed twice")
        }
    }

    @Test("params read into an input write back as the same params; defaults are left out")
    func roundTrip() throws {
        let daily: JSONObject = [
            "date": "2023-04-26", "limit": 3, "multiMovie": false, "nation": "korean", "area": "0105001",
            "include": ["detail", "poster"], "refresh": true,
        ]
        #expect(try BoxOfficeMethod.Input(params: daily).params == daily)
        #expect(try BoxOfficeMethod.Input(params: ["limit": 10, "refresh": false]).params == [:])
        let person: JSONObject = ["peopleCode": "10001", "include": ["movies"]]
        #expect(try PeopleDetailMethod.Input(params: person).params == person)
        #expect(try PeopleDetailMethod.Input(params: person).includeMovies)
        let search: JSONObject = ["title": "범죄와의 전쟁", "year": 2012, "page": 2]
        #expect(try MovieSearchMethod.Input(params: search).params == search)
    }

    @Test("a day that does not exist is refused at its param")
    func impossibleDate() {
        #expect(throws: RPCError.self) { try BoxOfficeMethod.Input(params: ["date": "2023-02-30"]) }
    }
}
