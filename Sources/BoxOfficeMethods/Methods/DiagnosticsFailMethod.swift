package import JSONCore
package import JSONRPC
import JSONSchema

/// `diagnostics.fail` (only with `--diagnostics`): its handler fails with an unexpected error, so hosts and tests
/// can see the `-32603` answer that hides internals, and that the worker keeps serving.
package struct DiagnosticsFailMethod: TypedMethod {
    package static let methodName = "diagnostics.fail"
    package let summary = "Fails with an unexpected error (-32603); for testing hosts. Only with --diagnostics."
    package let schemas: MethodSchemas

    /// A failure that is deliberately not an `RPCError`: the server must not leak it.
    package struct DeliberateFailure: Error, CustomStringConvertible {
        package var description: String {
            "diagnostics.fail: deliberate handler failure (internal detail that must not leak)"
        }
    }

    package init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    package func start(_ input: NoInput, in context: RequestContext) -> Reply<JSONValue> {
        .work { throw DeliberateFailure() }
    }

    package func result(_ output: JSONValue) -> RPCResult {
        .value(output)
    }
}
