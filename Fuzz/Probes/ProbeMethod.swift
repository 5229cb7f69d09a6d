package import BoxOfficeMethods
import BoxOfficeWorker
package import JSONCore
package import JSONRPC
package import JSONSchema

/// A method of the protocol with its real name and params schema but a handler that costs nothing, so the `rpc` and
/// `mcp-probes` targets spend their inputs on the server and the MCP layer (framing, parsing, classification,
/// validation, dispatch, cancellation, progress, sessions, answers) rather than on the box office.
///
/// Why a separate table: the `lines` and `mcp` targets dispatch into the worker's own offline methods, and under
/// AddressSanitizer those run at 30–300 inputs per second; the paths around them deserve millions.
///
/// What the handler does is chosen by the request's id, so the fuzzer reaches every kind of answer for every method:
/// answered on the spot, answered by work that reports progress, work that waits for cancellation points, an
/// ``RPCError`` of the contract, or another error (which the server must turn into `-32603`).
package struct ProbeMethod: RPCMethod {
    package let name: String
    package let summary = "A fuzzing probe with this method's params schema."
    package let paramsSchema: JSONSchema
    package let resultSchema: JSONValue

    /// Every method whose schemas are bundled in `Schemas/`, as a probe, in one registry.
    package static func registry() throws -> MethodRegistry {
        MethodRegistry(try all())
    }

    private static func all() throws -> [ProbeMethod] {
        let suffix = ".params.schema.json"
        return try SchemaCatalog.fileNames.filter { $0.hasSuffix(suffix) }.map { file in
            let method = String(file.dropLast(suffix.count))
            let schemas = try SchemaCatalog.schemas(for: method)
            return ProbeMethod(name: method, paramsSchema: schemas.params, resultSchema: schemas.result)
        }
    }

    /// What the probe answers with, chosen by the id.
    private enum Behaviour: Int, CaseIterable {
        case ready, progress, yielding, rpcError, otherError
    }

    private struct Unexpected: Error {}

    package func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
        let echo: JSONValue = ["method": .string(name), "params": .object(params)]
        switch Self.behaviour(for: context.id) {
        case .ready:
            return .value(echo)
        case .progress:
            return .later {
                context.reportProgress(1, total: 2, message: "half")
                context.reportProgress(2, total: 2)
                return echo
            }
        case .yielding:
            return .later {
                for _ in 0..<3 {
                    try Task.checkCancellation()
                    await Task.yield()
                }
                return echo
            }
        case .rpcError:
            throw RPCError(.upstreamUnavailable, "probe failure: KOBIS is unavailable", data: echo)
        case .otherError:
            return .work { throw Unexpected() }
        }
    }

    /// A number from the id's text (integers by value), so near ids differ.
    private static func behaviour(for id: JSONValue?) -> Behaviour {
        guard let id else { return .ready }
        let seed: Int64 =
            if let integer = id.integerValue { integer } else {
                Int64(JSONSerializer.string(id).utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF })
            }
        let count = Int64(Behaviour.allCases.count)
        return Behaviour(rawValue: Int(((seed % count) + count) % count))!
    }
}
