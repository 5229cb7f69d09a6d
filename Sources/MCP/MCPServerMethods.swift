package import JSONRPC

/// The MCP server as the JSON-RPC server runs it: its method table and its protocol rules.
package enum MCPServerMethods {
    /// Every method of both eras, over `catalog`, remembering the legacy session in `session`.
    package static func registry(_ catalog: MCPCatalog, session: MCPSession) -> MethodRegistry {
        MethodRegistry([
            InitializeMethod(catalog: catalog, session: session),
            InitializedNotification(),
            MCPPingMethod(),
            ServerDiscoverMethod(catalog: catalog),
            ToolsListMethod(catalog: catalog),
            ToolsCallMethod(catalog: catalog),
            ResourcesListMethod(catalog: catalog),
            ResourceTemplatesListMethod(catalog: catalog),
            ResourcesReadMethod(catalog: catalog),
            PromptsListMethod(catalog: catalog),
            PromptsGetMethod(catalog: catalog),
        ])
    }

    /// MCP's rules: `notifications/cancelled {requestId}` and nothing further for the cancelled request, ids
    /// never null, batches only in a 2025-03-26 session.
    package static func rules(_ session: MCPSession) -> ProtocolRules {
        ProtocolRules(
            cancelMethod: "notifications/cancelled", cancelIDMember: "requestId", answersCancelled: false,
            allowsNullID: false, acceptsBatches: { session.acceptsBatches })
    }
}
