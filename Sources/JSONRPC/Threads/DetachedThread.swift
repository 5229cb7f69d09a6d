import Glibc

/// Starts a POSIX thread of its own for a body that blocks (reading stdin, waiting for answers to write), named
/// for `top` and debuggers, with the stack it asks for.
///
/// Foundation's `Thread` does the same and lives in the part of Foundation that links ICU, which the binary leaves
/// out. Detached: nobody joins it; the body ends by itself when the stream it serves ends.
package enum DetachedThread {
    /// - Parameters:
    ///   - name: at most 15 bytes show (the kernel's limit).
    ///   - stackSize: bytes (deep JSON is converted recursively on the protocol's threads); nil for the system's
    ///     default.
    package static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        pthread_attr_init(attributes)
        defer {
            pthread_attr_destroy(attributes)
            attributes.deallocate()
        }
        pthread_attr_setdetachstate(attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(attributes, stackSize) }
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var thread: pthread_t = 0
        let started = pthread_create(
            &thread, attributes,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                DetachedThread.name(box.name)
                box.body()
                return nil
            }, box)
        precondition(started == 0, "cannot start the \(name) thread: \(String(cString: strerror(started)))")
    }

    /// Names the calling thread through procfs (glibc declares `pthread_setname_np` only for `_GNU_SOURCE`, which
    /// Swift's Glibc module is not built with).
    private static func name(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
    }
}
