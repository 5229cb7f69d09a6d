import JSONCore
import JSONRPC
import JSONSchema

/// A method whose schemas come from `Schemas/<name>.params.schema.json` and `Schemas/<name>.result.schema.json`.
///
/// A method's schemas are loaded by its name, so a method and its schema files cannot drift apart silently: a
/// missing or broken file fails the worker's start-up (and the tests).
protocol CatalogMethod: RPCMethod {
    var schemas: MethodSchemas { get }
}

extension CatalogMethod {
    var name: String { schemas.name }
    var paramsSchema: JSONSchema { schemas.params }
    var resultSchema: JSONValue { schemas.result }
}
