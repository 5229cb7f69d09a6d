import Foundation

/// One of the worker's output pipes as an async sequence of the chunks it delivers, to its end.
///
/// A thread of its own does the reading, blocked in `poll` and `read` where no task waits: a read blocked on the
/// cooperative pool would hold one of its few threads (two on CI's machine) for as long as the worker is quiet.
/// With `stop`, the thread also watches that descriptor and, once it is readable, closes the pipe itself and ends
/// the sequence: only the reading thread may close it, since a `close` from another thread would leave its blocked
/// `read` holding the pipe open, and the worker would never see the host go.
struct OutputPipe: Sendable {
    let chunks: AsyncStream<[UInt8]>

    init(_ handle: FileHandle, stop: Int32?) {
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        self.chunks = chunks
        // FileHandle is not Sendable; the thread is its only user from here on.
        nonisolated(unsafe) let handle = handle
        Thread {
            defer { continuation.finish() }
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                if let stop {
                    var descriptors = [
                        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
                    ]
                    if poll(&descriptors, 2, -1) < 0 { continue }
                    if descriptors[1].revents != 0 {
                        try? handle.close()
                        return
                    }
                }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                continuation.yield(Array(buffer[..<count]))
            }
        }.start()
    }
}
