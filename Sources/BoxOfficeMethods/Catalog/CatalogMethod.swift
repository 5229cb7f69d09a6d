package import BoxOfficeCore
package import JSONCore
package import JSONRPC
package import JSONSchema

/// A method whose schemas come from `Schemas/<name>.params.schema.json` and `Schemas/<name>.result.schema.json`.
///
/// A method's schemas are loaded by its name, so a method and its schema files cannot drift apart silently: a
/// missing or broken file fails the worker's start-up (and the tests).
package protocol CatalogMethod: RPCMethod {
    var schemas: MethodSchemas { get }
}

extension CatalogMethod {
    package var name: String { schemas.name }
    package var paramsSchema: JSONSchema { schemas.params }
    package var resultSchema: JSONValue { schemas.result }
}

/// A method answered by the domain service, named once by its type. The rest (schemas, service, construction) is
/// shared here.
package protocol DomainMethod: CatalogMethod {
    static var methodName: String { get }
    var runtime: WorkerRuntime { get }
    init(schemas: MethodSchemas, runtime: WorkerRuntime)
}

extension DomainMethod {
    package var service: BoxOfficeService { runtime.service }

    /// - Throws: when the method's schema files are missing or broken (a build defect).
    package static func make(_ runtime: WorkerRuntime) throws(SchemaCatalog.LoadError) -> Self {
        Self(schemas: try MethodSchemas(for: methodName), runtime: runtime)
    }
}
