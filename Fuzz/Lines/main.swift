import BoxOfficeMethods
import BoxOfficeWorker
import FuzzSupport
import JSONRPC

/// The worker's own method table, offline (the embedded fixtures: no I/O), built once.
private let methods: MethodRegistry = {
    let configuration = WorkerConfiguration()
    let runtime = try! WorkerRuntime(configuration)
    return try! WorkerMethods(configuration, runtime: runtime, startedAt: WorkerClock()).registry
}()

/// The libFuzzer target: arbitrary bytes as the worker's stdin, through framing, parsing, classification, validation
/// against the schemas and dispatch, to end of input (``FuzzedHost/worker(_:_:registry:)`` checks the answers).
let fuzzLines: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { FuzzedHost.worker($0, $1, registry: methods) }

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzLines(data, size) }

FuzzDriver.run(fuzzLines)
