import BoxOfficeMethods
import BoxOfficeWorker
import FuzzSupport
import JSONRPC
import MCP

private let configuration = WorkerConfiguration()
private let runtime = try! WorkerRuntime(configuration)
private let methods = try! WorkerMethods(configuration, runtime: runtime, startedAt: WorkerClock()).registry
/// The tools, resources and prompt, built once (their schemas compile once); each run gets a fresh session.
private let catalog = BoxOfficeMCP.catalog(methods, runtime: runtime)

/// The libFuzzer target: arbitrary bytes as an MCP host's messages (both eras), to end of input, on a fresh session each
/// time (``FuzzedHost/mcp(_:_:catalog:)`` checks the answers).
let fuzzMCP: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { FuzzedHost.mcp($0, $1, catalog: catalog) }

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzMCP(data, size) }

FuzzDriver.run(fuzzMCP)
