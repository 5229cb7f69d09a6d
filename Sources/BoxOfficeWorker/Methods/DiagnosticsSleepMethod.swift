import JSONCore
import JSONRPC
import JSONSchema

/// `diagnostics.sleep` (only with `--diagnostics`): waits, reporting progress, and honours cancellation.
///
/// It exists so hosts (and this project's transcript tests) can see slow requests, `$/cancelRequest`, duplicate
/// in-flight ids, `--ordered`, progress and the shutdown drain against the real binary.
struct DiagnosticsSleepMethod: CatalogMethod {
    static let methodName = "diagnostics.sleep"
    let summary = "Waits ms milliseconds in steps, with progress; for testing hosts. Only with --diagnostics."
    let schemas: MethodSchemas

    init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    func start(_ context: RequestContext) throws -> RPCReply {
        .later { try await answer(context) }
    }

    private func answer(_ context: RequestContext) async throws -> JSONValue {
        let total = context.params["ms"]?.integerValue ?? 0
        let steps = context.params["steps"]?.integerValue ?? 1
        for step in 1...steps {
            let until = total * step / steps
            let from = total * (step - 1) / steps
            try await Task.sleep(for: .milliseconds(until - from))
            context.reportProgress(Double(step), total: Double(steps), message: "slept \(until) ms")
        }
        return ["sleptMs": .integer(total), "steps": .integer(steps)]
    }
}
