import JSONCore
import JSONRPC
import JSONSchema

/// `ping`: answers `{}` at once. Hosts use it to check that the worker is alive and reading.
struct PingMethod: TypedMethod {
    static let methodName = "ping"
    let summary = "Answers {} at once: the worker is alive and reading."
    let schemas: MethodSchemas

    init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    func start(_ input: NoInput, in context: RequestContext) -> Reply<Void> {
        .ready(())
    }

    func result(_ output: Void) -> RPCResult {
        .value(.object([:]))
    }
}
