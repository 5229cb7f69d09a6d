import BoxOfficeMethods
import BoxOfficeWorker
import Foundation
import JSONCore
import JSONSchema
import TestSupport
import Testing

/// Schemas/ is the contract hosts read: every file must be a valid draft 2020-12 schema, every example must
/// satisfy it, and invalid params must be reported at the right places.
@Suite("Schemas/ as a contract")
struct SchemaContractTests {
    static let methods = [
        "ping", "worker.status", "rpc.discover", "boxoffice.daily", "boxoffice.weekly", "movie.detail", "movie.poster",
        "movie.search", "people.search", "people.detail", "company.search", "company.detail", "codes.list",
        "movie.run", "movie.compare",
    ]

    static let metaschemaResolver: @Sendable (String) -> JSONValue? = { uri in
        let prefix = "https://json-schema.org/draft/2020-12/"
        guard uri.hasPrefix(prefix) else { return nil }
        let file = SharedData.directory.appending(
            path: "testsuites/metaschemas/draft2020-12/" + uri.dropFirst(prefix.count) + ".json")
        return (try? Data(contentsOf: file)).flatMap { try? JSONParser.parse([UInt8]($0)) }
    }

    @Test("every method of protocol.md §3 has both schemas")
    func everyMethod() {
        let names = Set(SchemaCatalog.fileNames)
        for method in Self.methods {
            #expect(names.contains("\(method).params.schema.json"), "\(method)")
            #expect(names.contains("\(method).result.schema.json"), "\(method)")
        }
    }

    @Test(
        "every file in Schemas/ is valid against the draft 2020-12 meta-schema",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func metaSchema() throws {
        let meta = try JSONSchema(
            ["$ref": "https://json-schema.org/draft/2020-12/schema"],
            options: SchemaOptions(resolver: Self.metaschemaResolver))
        for name in SchemaCatalog.fileNames {
            let errors = meta.validate(try SchemaCatalog.document(name))
            #expect(errors.isEmpty, "\(name): \(errors)")
        }
    }

    @Test("every example validates against its own schema; params forbid unknown members", arguments: methods)
    func examples(method: String) throws {
        for kind in ["params", "result"] {
            let file = "\(method).\(kind).schema.json"
            let schema = try SchemaCatalog.compiled(file)
            let examples = try #require(schema.document["examples"]?.arrayValue, "\(file) has no examples")
            #expect(!examples.isEmpty)
            for example in examples {
                #expect(schema.validate(example).isEmpty, "\(file): \(example) → \(schema.validate(example))")
            }
            if kind == "params" {
                #expect(schema.document["additionalProperties"] == false, "\(file)")
                #expect(!schema.isValid(["surprise": true]), "\(file) accepts an unknown member")
            }
        }
    }

    /// Invalid params and the instance locations their errors must name.
    static let invalidParams: [(method: String, params: JSONValue, locations: Set<String>)] = [
        ("boxoffice.daily", ["date": "2022-1-5"], ["/date"]),
        ("boxoffice.daily", ["date": "2023-02-29"], ["/date"]),
        ("boxoffice.daily", ["date": 20220105], ["/date"]),
        ("boxoffice.daily", ["limit": 11, "nation": "japanese"], ["/limit", "/nation"]),
        ("boxoffice.daily", ["include": ["detail", "trailer"], "area": ""], ["/include/1", "/area"]),
        ("boxoffice.daily", ["include": ["poster", "poster"]], ["/include"]),
        ("boxoffice.weekly", ["period": "month", "multiMovie": "Y"], ["/period", "/multiMovie"]),
        ("movie.detail", [:], [""]),
        ("movie.detail", ["movieCode": "2012-4079"], ["/movieCode"]),
        ("movie.poster", ["title": "광해", "movieCode": "20124079"], [""]),
        ("movie.poster", ["download": true], [""]),
        ("movie.poster", ["title": ""], ["/title"]),
        ("movie.search", ["year": 2012], [""]),
        ("movie.search", ["title": "광해", "limit": 101, "page": 0], ["/limit", "/page"]),
        ("ping", ["x": 1], ["/x"]),
    ]

    @Test("invalid params are reported at their instance locations", arguments: 0..<invalidParams.count)
    func invalid(index: Int) throws {
        let (method, params, locations) = Self.invalidParams[index]
        let schema = try SchemaCatalog.schemas(for: method).params
        let errors = schema.validate(params)
        #expect(Set(errors.map(\.instanceLocation.description)) == locations, "\(method) \(params): \(errors)")
        #expect(errors.allSatisfy { !$0.message.isEmpty && $0.keywordLocation.tokens.last != nil })
    }
}
