import FuzzProbes
import FuzzSupport
import JSONRPC

/// Every method of `Schemas/` as a probe (``ProbeMethod``), built once.
private let methods = try! ProbeMethod.registry()

/// The libFuzzer target: arbitrary bytes as the worker's stdin, through the server's framing, parsing,
/// classification, validation against the real params schemas and dispatch into handlers that cost nothing
/// (``FuzzedHost/worker(_:_:registry:)`` checks the answers). The `lines` target covers the same path into the
/// worker's own methods.
let fuzzRPC: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { FuzzedHost.worker($0, $1, registry: methods) }

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzRPC(data, size) }

FuzzDriver.run(fuzzRPC)
