import JSONCore
import JSONRPC
import JSONSchema

/// `diagnostics.fail` (only with `--diagnostics`): its handler fails with an unexpected error, so hosts and tests
/// can see the `-32603` answer that hides internals, and that the worker keeps serving.
struct DiagnosticsFailMethod: TypedMethod {
    static let methodName = "diagnostics.fail"
    let summary = "Fails with an unexpected error (-32603); for testing hosts. Only with --diagnostics."
    let schemas: MethodSchemas

    /// A failure that is deliberately not an `RPCError`: the server must not leak it.
    struct DeliberateFailure: Error, CustomStringConvertible {
        var description: String { "diagnostics.fail: deliberate handler failure (internal detail that must not leak)" }
    }

    init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    func start(_ input: NoInput, in context: RequestContext) -> Reply<JSONValue> {
        .work { throw DeliberateFailure() }
    }

    func result(_ output: JSONValue) -> RPCResult {
        .value(output)
    }
}
