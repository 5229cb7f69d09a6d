import SystemPackage

/// Writes to stderr (fd 2) whole, retrying what a signal interrupted: the worker's messages outside the log (a
/// refusal at start, a progress bar, a summary at exit). Foundation's `FileHandle` lives in the part of Foundation
/// the binary leaves out.
package enum StandardError {
    package static func write(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(text.utf8)
    }
}
