import BoxOfficeWorker
import FuzzProbes
import FuzzSupport
import JSONRPC
import MCP

/// The worker's own MCP catalog (tools, resources, the prompt) built over probe methods (``ProbeMethod``): every
/// tool, resource read and prompt runs the MCP layer as the worker does, and a handler that costs nothing behind it.
private let catalog = BoxOfficeMCP.catalog(
    try! ProbeMethod.registry(), runtime: try! WorkerRuntime(WorkerConfiguration()))

/// The libFuzzer target: arbitrary bytes as an MCP host's messages (both eras), to end of input, on a fresh session
/// each time, like the `mcp` target but at the rate of the MCP layer alone. `notifications/cancelled` may leave a
/// request unanswered by design, so only the shape of what is written and the absence of double answers are checked
/// (``LineHarness``).
let fuzzMCPProbes: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    guard let data else { return 0 }
    let session = MCPSession()
    var server = ServerConfiguration(maxInFlight: 16, maxLineBytes: 1 << 20, maxBatch: 100_000)
    server.rules = MCPServerMethods.rules(session)
    LineHarness.serve(
        Array(UnsafeBufferPointer(start: data, count: size)),
        registry: MCPServerMethods.registry(catalog, session: session),
        configuration: server, cancellable: true)
    return 0
}

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzMCPProbes(data, size) }

FuzzDriver.run(fuzzMCPProbes)
