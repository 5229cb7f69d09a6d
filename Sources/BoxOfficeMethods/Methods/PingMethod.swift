import JSONCore
package import JSONRPC
import JSONSchema

/// `ping`: answers `{}` at once. Hosts use it to check that the worker is alive and reading.
package struct PingMethod: TypedMethod {
    package static let methodName = "ping"
    package let summary = "Answers {} at once: the worker is alive and reading."
    package let schemas: MethodSchemas

    package init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    package func start(_ input: NoInput, in context: RequestContext) -> Reply<Void> {
        .ready(())
    }

    package func result(_ output: Void) -> RPCResult {
        .value(.object([:]))
    }
}
