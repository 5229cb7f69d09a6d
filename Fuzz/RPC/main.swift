import FuzzProbes
import FuzzSupport
import JSONRPC

/// Every method of `Schemas/` as a probe (``ProbeMethod``), built once.
private let methods = try! ProbeMethod.registry()

/// The libFuzzer target: arbitrary bytes as the worker's stdin, through the server's framing, parsing,
/// classification, validation against the real params schemas and dispatch into handlers that cost nothing
/// (``LineHarness`` checks the answers). The `lines` target covers the same path into the worker's own methods.
let fuzzRPC: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    guard let data else { return 0 }
    LineHarness.serve(
        Array(UnsafeBufferPointer(start: data, count: size)), registry: methods,
        configuration: ServerConfiguration(maxInFlight: 16, maxLineBytes: 1 << 20, maxBatch: 100_000),
        cancellable: false)
    return 0
}

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzRPC(data, size) }

FuzzDriver.run(fuzzRPC)
