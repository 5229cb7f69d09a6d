package import JSONCore
package import JSONSchema

/// A method of the protocol: its name, its schemas and its one step, ``start(_:_:)``, which every face reaches
/// through the one entrance, ``enter(_:_:)`` (params checked against ``paramsSchema`` first).
///
/// - Important: ``start(_:_:)`` runs once per request on the thread answering lines (the responder, or the reader for
///   a small chunk that finds the responder idle), one line at a time, in reading order. It either answers on
///   the spot (``RPCReply/ready(_:)``: `ping`, `worker.status`, a box office already at hand in memory) or returns the
///   asynchronous work that answers (``RPCReply/work(_:)``), which the server runs in its task group. Either way the
///   request is answered exactly once: with the result, with the ``RPCError`` thrown, with `-32603` for any other
///   error, or with `-32800` when cancelled. Work must honour Swift task cancellation.
package protocol RPCMethod: Sendable {
    /// The wire name, e.g. `boxoffice.daily`.
    var name: String { get }
    /// One line for `rpc.discover`.
    var summary: String { get }
    /// Validates params (without `_meta`) before ``start(_:_:)`` runs.
    var paramsSchema: JSONSchema { get }
    /// The result's schema, as published in `rpc.discover`.
    var resultSchema: JSONValue { get }
    /// The one synchronous step of every request: a ready answer, or the work that makes it.
    ///
    /// - Important: Never block or wait here: reading stops while it runs. Anything that may wait belongs in the
    ///   returned work.
    ///
    /// - Parameters:
    ///   - params: the params without `_meta`, valid against ``paramsSchema``.
    ///   - context: the request's id, `_meta`, progress and server.
    func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply
}

extension RPCMethod {
    /// The one entrance of every face (JSON-RPC dispatch, MCP tools, resources and prompts): params checked against
    /// the method's schema (`-32602` listing what is wrong), then the method's one step.
    package func enter(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
        let errors = paramsSchema.validate(.object(params))
        guard errors.isEmpty else { throw RPCError.invalidParams(errors) }
        return try start(params, context)
    }
}
