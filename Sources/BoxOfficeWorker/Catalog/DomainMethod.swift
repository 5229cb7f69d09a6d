import BoxOfficeCore

/// A method answered by the domain service, named once by its type. The rest (schemas, service, construction) is
/// shared here.
protocol DomainMethod: CatalogMethod {
    static var methodName: String { get }
    var runtime: WorkerRuntime { get }
    init(schemas: MethodSchemas, runtime: WorkerRuntime)
}

extension DomainMethod {
    var service: BoxOfficeService { runtime.service }

    /// - Throws: when the method's schema files are missing or broken (a build defect).
    static func make(_ runtime: WorkerRuntime) throws(SchemaCatalog.LoadError) -> Self {
        Self(schemas: try MethodSchemas(for: methodName), runtime: runtime)
    }
}
