package import JSONCore
package import JSONRPC
import JSONSchema

/// `diagnostics.sleep` (only with `--diagnostics`): waits, reporting progress, and honours cancellation.
///
/// It exists so hosts (and this project's transcript tests) can see slow requests, `$/cancelRequest`, duplicate
/// in-flight ids, `--ordered`, progress and the shutdown drain against the real binary.
package struct DiagnosticsSleepMethod: TypedMethod {
    package static let methodName = "diagnostics.sleep"
    package let summary = "Waits ms milliseconds in steps, with progress; for testing hosts. Only with --diagnostics."
    package let schemas: MethodSchemas

    package init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    /// How long to sleep, in how many steps.
    package struct Input: MethodInput {
        package var ms = 0
        package var steps = 1

        package static let fields: [InputField<Self>] = [
            .int("ms", \.ms, default: 0), .int("steps", \.steps, default: 1),
        ]
        package static let blank = Self()
    }

    package func start(_ input: Input, in context: RequestContext) -> Reply<JSONValue> {
        .work { try await answer(input, context) }
    }

    package func result(_ output: JSONValue) -> RPCResult {
        .value(output)
    }

    private func answer(_ input: Input, _ context: RequestContext) async throws -> JSONValue {
        let (total, steps) = (Int64(input.ms), Int64(input.steps))
        for step in 1...steps {
            let until = total * step / steps
            let from = total * (step - 1) / steps
            try await Task.sleep(for: .milliseconds(until - from))
            context.reportProgress(Double(step), total: Double(steps), message: "slept \(until) ms")
        }
        return ["sleptMs": .integer(total), "steps": .integer(steps)]
    }
}
