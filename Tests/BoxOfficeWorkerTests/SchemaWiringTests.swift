import BoxOfficeMethods
import BoxOfficeWorker
import JSONCore
import JSONSchema
import TestSupport
import Testing
import WorkerTestSupport

/// Params are validated before a handler runs, results match their published schemas, and `rpc.discover` publishes
/// the real schemas.
@Suite("Schemas on the wire")
struct SchemaWiringTests {
    @Test(
        "each registered method with invalid params → -32602 naming the instance locations",
        arguments: [
            (#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1,"y":2}}"#, ["/x", "/y"]),
            (#"{"jsonrpc":"2.0","id":1,"method":"worker.status","params":{"verbose":true}}"#, ["/verbose"]),
            (#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover","params":{"format":"yaml"}}"#, ["/format"]),
            (#"{"jsonrpc":"2.0","id":1,"method":"diagnostics.sleep","params":{}}"#, [""]),
            (
                #"{"jsonrpc":"2.0","id":1,"method":"diagnostics.sleep","params":{"ms":-5,"steps":0}}"#,
                ["/ms", "/steps"]
            ),
            (#"{"jsonrpc":"2.0","id":1,"method":"diagnostics.sleep","params":{"ms":"10"}}"#, ["/ms"]),
        ])
    func invalidParams(line: String, locations: [String]) async throws {
        let response = try #require(try await OfflineWorker(["--diagnostics"]).jsonRPC.json([line]).first)
        #expect(response[at: "/error/code"] == -32602)
        #expect(response[at: "/error/data/reason"] == "invalid_params")
        let errors = response[at: "/error/data/errors"]?.arrayValue ?? []
        #expect(Set(errors.compactMap { $0["instanceLocation"]?.stringValue }) == Set(locations))
        #expect(errors.allSatisfy { $0["keywordLocation"]?.stringValue != nil && $0["message"]?.stringValue != nil })
        let first = try #require(errors.first?["message"]?.stringValue)
        #expect(response[at: "/error/message"]?.stringValue?.contains(first) == true)
    }

    @Test("at most 20 errors are listed")
    func errorLimit() async throws {
        let params = JSONValue.object(JSONObject((0..<30).map { ("p\($0)", JSONValue.int($0)) }))
        let response = try #require(try await OfflineWorker().jsonRPC.json([request(1, "ping", params: params)]).first)
        #expect(response[at: "/error/data/errors"]?.arrayValue?.count == 20)
        #expect(response[at: "/error/message"]?.stringValue?.contains("29 more") == true)
    }

    @Test("_meta never causes -32602, whatever it holds, for every registered method")
    func meta() async throws {
        let meta: JSONValue = ["progressToken": ["odd": [1, 2]], "anything": "goes"]
        let lines = [
            request(1, "ping", params: ["_meta": meta]), request(2, "worker.status", params: ["_meta": meta]),
            request(3, "rpc.discover", params: ["_meta": meta]),
            request(4, "diagnostics.sleep", params: ["ms": 1, "_meta": meta]),
        ]
        let out = try await OfflineWorker(["--diagnostics"]).jsonRPC.json(lines)
        #expect(out.count == 4)
        #expect(out.allSatisfy { $0["result"] != nil })
    }

    @Test("every result validates against its method's result schema")
    func results() async throws {
        let calls: [(String, JSONValue?)] = [
            ("ping", nil), ("worker.status", nil), ("rpc.discover", nil), ("diagnostics.sleep", ["ms": 1, "steps": 1]),
        ]
        let lines = calls.enumerated().map { request(.int($0.offset), $0.element.0, params: $0.element.1) }
        let out = try await OfflineWorker(["--diagnostics", "--ordered"]).jsonRPC.json(lines)
        for (index, call) in calls.enumerated() {
            let schema = try SchemaCatalog.compiled("\(call.0).result.schema.json")
            let result = try #require(out[index]["result"], "\(call.0): \(out[index])")
            #expect(schema.validate(result).isEmpty, "\(call.0): \(schema.validate(result))")
        }
    }

    @Test("rpc.discover publishes the schemas in Schemas/ as they are")
    func discoverPublishesSchemas() async throws {
        let out = try await OfflineWorker().jsonRPC.json([request(1, "rpc.discover")])
        let methods = try #require(out.first?[at: "/result/methods"]?.arrayValue)
        for method in methods {
            let name = try #require(method["name"]?.stringValue)
            #expect(method[at: "/result/schema"] == (try SchemaCatalog.document("\(name).result.schema.json")))
            #expect(method["x-params-schema"] == (try SchemaCatalog.document("\(name).params.schema.json")))
        }
    }
}
