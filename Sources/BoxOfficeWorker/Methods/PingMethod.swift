import JSONCore
import JSONRPC
import JSONSchema

/// `ping`: answers `{}` at once. Hosts use it to check that the worker is alive and reading.
struct PingMethod: ImmediateRPCMethod {
    let name = "ping"
    let summary = "Answers {} at once: the worker is alive and reading."
    let paramsSchema: JSONSchema
    let resultSchema: JSONValue

    init() throws(SchemaCatalog.LoadError) {
        (paramsSchema, resultSchema) = try SchemaCatalog.schemas(for: name)
    }

    func callImmediately(_ context: RequestContext) throws -> JSONValue {
        .object([:])
    }
}
