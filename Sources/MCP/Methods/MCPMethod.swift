import JSONCore
import JSONRPC
import JSONSchema

/// An MCP method: which eras have it, and its answer; the era checks and the modern era's result members are
/// added here for all of them.
protocol MCPMethod: RPCMethod {
    /// Part of the handshake era.
    var legacy: Bool { get }
    /// Part of the modern era.
    var modern: Bool { get }
    /// A result a modern client may cache (`ttlMs`, `cacheScope`): discovery and the lists.
    var cacheable: Bool { get }
    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply
}

extension MCPMethod {
    var legacy: Bool { true }
    var modern: Bool { true }
    var cacheable: Bool { false }
    var summary: String { name }
    /// MCP params are checked by each method (its errors are MCP's, not a schema's list).
    var paramsSchema: JSONSchema { MCPParams.anyObject }
    var resultSchema: JSONValue { ["type": "object"] }

    func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
        let era = try MCPEra.of(context.meta)
        if !era.isModern && modern && !legacy { throw Self.modernOnly(name) }
        guard era.isModern ? modern : legacy else { throw RPCError.methodNotFound(name) }
        let reply = try answer(params, context, era: era)
        guard era.isModern else { return reply }
        let members = ModernResult.members(cacheable: cacheable)
        return try reply.mapResult { ModernResult.adding(members, to: $0) }
    }
}

extension MCPMethod {
    /// A modern-era method called without the modern `_meta`: the method exists, so the client is told what its
    /// request lacks, rather than "Method not found" (which reads as "this server has no such thing").
    static func modernOnly(_ name: String) -> RPCError {
        RPCError(
            .invalidParams,
            "\(name) is a modern-era method (protocol \(MCPVersion.modern.joined(separator: ", "))): every request "
                + "carries params._meta[\"\(MCPMetaKey.protocolVersion)\"] and "
                + "params._meta[\"\(MCPMetaKey.clientCapabilities)\"] (an object); handshake-era clients send "
                + "initialize first",
            data: [
                "missing": [.string(MCPMetaKey.protocolVersion), .string(MCPMetaKey.clientCapabilities)],
                "supported": .array(MCPVersion.modern.map(JSONValue.string)),
            ])
    }
}

/// The permissive params schema of MCP methods.
enum MCPParams {
    static let anyObject: JSONSchema = {
        do {
            return try JSONSchema(["type": "object"])
        } catch {
            preconditionFailure("{\"type\":\"object\"} compiles: \(error)")
        }
    }()
}
