import Glibc

/// The process's environment as a dictionary, read from `environ`.
///
/// Why not `ProcessInfo.processInfo.environment`: the first touch of `ProcessInfo` builds the whole process record
/// (arguments, host and process names, a lock) and its dictionary, about a twentieth of a cold offline ping's start
/// (issue 43); the entry needs the variables only. A variable without `=` is skipped; the first of two with the
/// same name wins, as `getenv` reads them.
enum ProcessEnvironment {
    static func read() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let equals = text.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: text[..<equals]), as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(
                        decoding: UnsafeBufferPointer(rebasing: text[(equals + 1)...]), as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
