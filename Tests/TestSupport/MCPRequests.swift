package import JSONCore

/// MCP request lines as a host writes them, for the transcripts of both eras.
package enum MCPRequests {
    /// The modern era's protocol version (stateless requests, `_meta` on each).
    package static let modern = "2026-07-28"

    /// `_meta` of a modern request (both required members), plus `extra`.
    package static func meta(version: String = modern, capabilities: Bool = true, extra: JSONObject = [:])
        -> JSONValue
    {
        var meta: JSONObject = ["io.modelcontextprotocol/protocolVersion": .string(version)]
        if capabilities { meta["io.modelcontextprotocol/clientCapabilities"] = [:] }
        for member in extra { meta[member.key] = member.value }
        return .object(meta)
    }

    /// A legacy-era `initialize` asking for `version`.
    package static func initialize(_ id: Int, version: String = "2025-06-18") -> String {
        request(
            .int(id), "initialize",
            params: [
                "protocolVersion": .string(version), "capabilities": [:],
                "clientInfo": ["name": "transcript", "version": "1"],
            ])
    }

    /// `tools/call` of `tool` with `arguments` (and `_meta` when given).
    package static func call(_ id: Int, _ tool: String, _ arguments: JSONValue = [:], meta: JSONValue? = nil)
        -> String
    {
        var params: JSONObject = ["name": .string(tool), "arguments": arguments]
        if let meta { params["_meta"] = meta }
        return request(.int(id), "tools/call", params: .object(params))
    }
}
