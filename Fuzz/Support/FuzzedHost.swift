package import JSONRPC
package import MCP

/// The two hosts the line targets play, each feeding one input to the in-memory server and checking the answers
/// (``LineHarness``): a JSON-RPC host on the worker's stdin (`rpc`, `lines`) and an MCP host (`mcp-probes`, `mcp`).
/// The targets differ only in the methods behind the server, so each target's entry point is one call here.
package enum FuzzedHost {
    /// Limits far past any fuzz input's size (`scripts/fuzz` caps inputs at 8 KiB), so every input exercises the
    /// server's paths rather than its size refusals, which the host-misbehaviour tests cover (`Tests/Reliability`).
    static func server() -> ServerConfiguration {
        ServerConfiguration(maxInFlight: 16, maxLineBytes: 1 << 20, maxBatch: 100_000)
    }

    /// `size` bytes at `data` as the worker's stdin, to end of input, served by `registry`. Every request is
    /// answered: no cancelled request may go unanswered under JSON-RPC's rules (`$/cancelRequest` answers -32800).
    package static func worker(_ data: UnsafePointer<UInt8>?, _ size: Int, registry: MethodRegistry) -> CInt {
        guard let data else { return 0 }
        LineHarness.serve(
            Array(UnsafeBufferPointer(start: data, count: size)), registry: registry, configuration: server(),
            cancellable: false)
        return 0
    }

    /// `size` bytes at `data` as an MCP host's messages (both eras), to end of input, on a fresh session over
    /// `catalog`. `notifications/cancelled` may leave a request unanswered by design, so only the shape of what is
    /// written and the absence of double answers are checked.
    package static func mcp(_ data: UnsafePointer<UInt8>?, _ size: Int, catalog: MCPCatalog) -> CInt {
        guard let data else { return 0 }
        let session = MCPSession()
        var configuration = server()
        configuration.rules = MCPServerMethods.rules(session)
        LineHarness.serve(
            Array(UnsafeBufferPointer(start: data, count: size)),
            registry: MCPServerMethods.registry(catalog, session: session), configuration: configuration,
            cancellable: true)
        return 0
    }
}
