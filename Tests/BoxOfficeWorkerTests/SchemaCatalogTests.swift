import BoxOfficeMethods
import BoxOfficeWorker
import JSONCore
import JSONRPC
import JSONSchema
import Testing

@Suite("Embedded schemas and the method table")
struct SchemaCatalogTests {
    @Test("every file in Schemas/ is embedded, parses and names its draft")
    func embedded() throws {
        let names = SchemaCatalog.fileNames
        #expect(names.count >= 10)
        for name in names {
            let document = try SchemaCatalog.document(name)
            #expect(document["$schema"] == "https://json-schema.org/draft/2020-12/schema", "\(name)")
            #expect(document["title"]?.stringValue?.isEmpty == false, "\(name) has no title")
        }
    }

    @Test("every method has a params and a result schema, and every params example validates")
    func pairs() throws {
        let names = Set(SchemaCatalog.fileNames)
        let methods = Set(
            names.compactMap { name -> String? in
                for suffix in [".params.schema.json", ".result.schema.json"] where name.hasSuffix(suffix) {
                    return String(name.dropLast(suffix.count))
                }
                return nil
            })
        for method in methods {
            #expect(names.contains("\(method).params.schema.json"), "\(method) lacks a params schema")
            #expect(names.contains("\(method).result.schema.json"), "\(method) lacks a result schema")
            let (params, _) = try SchemaCatalog.schemas(for: method)
            for example in params.document["examples"]?.arrayValue ?? [] {
                #expect(params.validate(example).isEmpty, "\(method) example \(example)")
            }
        }
    }

    @Test("the registry holds every method of the contract, and the diagnostics only when asked")
    func registry() throws {
        let plain = try WorkerMethods(
            WorkerConfiguration(), runtime: try WorkerRuntime(WorkerConfiguration()), startedAt: WorkerClock()
        ).registry
        #expect(
            plain.methods.map(\.name) == [
                "ping", "worker.status", "rpc.discover", "boxoffice.daily", "boxoffice.weekly", "movie.detail",
                "movie.poster", "movie.search", "people.search", "people.detail", "company.search", "company.detail",
                "codes.list", "movie.run", "movie.compare",
            ])
        let configuration = WorkerConfiguration(diagnostics: true)
        let diagnostics = try WorkerMethods(
            configuration, runtime: try WorkerRuntime(configuration), startedAt: WorkerClock()
        ).registry
        #expect(diagnostics.methods.map(\.name).contains("diagnostics.sleep"))
        for method in diagnostics.methods {
            #expect(method.resultSchema.objectValue != nil, "\(method.name) result schema")
        }
    }

    @Test("the demo fixture is embedded and every line is JSON")
    func demo() throws {
        let demo = try #require(EmbeddedFixtures.text("demo.ndjson"))
        let lines = demo.split(separator: "\n")
        #expect(lines.count >= 5)
        // One line is deliberately broken (trailing garbage) to show the error answer.
        let parsed = lines.filter { (try? JSONParser.parse(String($0))) != nil }
        #expect(parsed.count == lines.count - 1)
    }
}
