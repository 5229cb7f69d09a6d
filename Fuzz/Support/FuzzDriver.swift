import Foundation

/// libFuzzer's driver, called from each target's `main`: SwiftPM renames an executable's entry point on Linux
/// (so tests can link it), which leaves libFuzzer's own `main` unused; `LLVMFuzzerRunDriver` is its documented way
/// in from a program of one's own.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

package enum FuzzDriver {
    /// Runs libFuzzer with this process's arguments over `target`; never returns.
    package static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv, target))
    }
}
