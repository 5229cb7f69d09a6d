import JSONCore
import JSONRPC
import JSONSchema

/// A method whose schemas come from `Schemas/<name>.params.schema.json` and `Schemas/<name>.result.schema.json`.
///
/// A method type states its name once; the schemas are loaded by that name, so a method and its schema files
/// cannot drift apart silently: a missing or broken file fails the worker's start-up (and the tests).
protocol CatalogMethod: RPCMethod {
    static var methodName: String { get }
    var schemas: MethodSchemas { get }
}

/// A method's compiled params schema and its result schema document.
struct MethodSchemas: Sendable {
    let params: JSONSchema
    let result: JSONValue

    init(for method: String) throws(SchemaCatalog.LoadError) {
        (params, result) = try SchemaCatalog.schemas(for: method)
    }
}

extension CatalogMethod {
    var name: String { Self.methodName }
    var paramsSchema: JSONSchema { schemas.params }
    var resultSchema: JSONValue { schemas.result }
}
