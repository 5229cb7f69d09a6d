import BoxOfficeWorker
import FuzzSupport
import JSONRPC
import MCP

private let configuration = WorkerConfiguration()
private let runtime = try! WorkerRuntime(configuration)
private let methods = try! MethodTable.registry(configuration, runtime: runtime, startedAt: WorkerClock())
/// The tools, resources and prompt, built once (their schemas compile once); each run gets a fresh session.
private let catalog = BoxOfficeMCP.catalog(methods, runtime: runtime)

/// The libFuzzer target: arbitrary bytes as an MCP host's messages (both eras), to end of input, on a fresh session each
/// time. `notifications/cancelled` may leave a request unanswered by design, so only the shape of what is written
/// and the absence of double answers are checked (``LineHarness``).
let fuzzMCP: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
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
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzMCP(data, size) }

FuzzDriver.run(fuzzMCP)
