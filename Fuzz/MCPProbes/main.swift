import BoxOfficeMethods
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
/// each time, like the `mcp` target but at the rate of the MCP layer alone (``FuzzedHost/mcp(_:_:catalog:)`` checks
/// the answers).
let fuzzMCPProbes: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = {
    FuzzedHost.mcp($0, $1, catalog: catalog)
}

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzMCPProbes(data, size) }

FuzzDriver.run(fuzzMCPProbes)
