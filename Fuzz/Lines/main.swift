import BoxOfficeWorker
import FuzzSupport
import JSONRPC

/// The worker's own method table, offline (the embedded fixtures: no I/O), built once.
private let methods: MethodRegistry = {
    let configuration = WorkerConfiguration()
    let runtime = try! WorkerRuntime(configuration)
    return try! MethodTable.registry(configuration, runtime: runtime, startedAt: WorkerClock())
}()

/// The libFuzzer target: arbitrary bytes as the worker's stdin, through framing, parsing, classification, validation
/// against the schemas and dispatch, to end of input (``LineHarness`` checks the answers).
let fuzzLines: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    guard let data else { return 0 }
    LineHarness.serve(
        Array(UnsafeBufferPointer(start: data, count: size)), registry: methods,
        configuration: ServerConfiguration(maxInFlight: 16, maxLineBytes: 1 << 20, maxBatch: 100_000),
        cancellable: false)
    return 0
}

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzLines(data, size) }

FuzzDriver.run(fuzzLines)
