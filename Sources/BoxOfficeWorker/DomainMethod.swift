import BoxOfficeCore
import JSONSchema

/// What every box office method is built with: its schemas, loaded by its name, and the runtime (the domain
/// service, and for posters the downloader).
struct DomainMethodBase: Sendable {
    let schemas: MethodSchemas
    let runtime: WorkerRuntime
}

/// A method answered by the domain service. A conforming type states its name, summary and handler; the rest
/// (schemas, service, construction) is shared here.
protocol DomainMethod: CatalogMethod {
    var base: DomainMethodBase { get }
    init(base: DomainMethodBase)
}

extension DomainMethod {
    var schemas: MethodSchemas { base.schemas }
    var service: BoxOfficeService { base.runtime.service }

    /// - Throws: when the method's schema files are missing or broken (a build defect).
    static func make(_ runtime: WorkerRuntime) throws(SchemaCatalog.LoadError) -> Self {
        Self(base: DomainMethodBase(schemas: try MethodSchemas(for: methodName), runtime: runtime))
    }
}
