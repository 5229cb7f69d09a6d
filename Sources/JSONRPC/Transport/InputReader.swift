import FoundationEssentials
import Glibc

/// Reads the protocol stream from a file descriptor on a thread of its own.
///
/// A dedicated thread with blocking `read(2)` works for every kind of stdin: a pipe, a terminal, a socket and a
/// regular file (which an event loop cannot poll). A live worker reads a pipe on its event loop instead
/// (``InputPump``); this reader is there for everything else, and its descriptor is what the pump is
/// given. `poll(2)` on the input and a wake-up pipe lets ``stop()`` end
/// the reading promptly, even while it waits for input.
package final class InputReader: Sendable {
    let fd: Int32
    private let wake: (read: Int32, write: Int32)
    let chunkSize: Int

    init(fd: Int32, chunkSize: Int = 64 * 1024) {
        self.fd = fd
        self.chunkSize = chunkSize
        var pair: [Int32] = [0, 0]
        if pipe(&pair) != 0 { pair = [-1, -1] }
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pair[1], F_SETFD, FD_CLOEXEC)
        wake = (pair[0], pair[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Asks the reading loop to stop at its next wait; safe from any thread, and from a signal handler's queue.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    package enum Outcome: Sendable {
        case endOfInput
        case stopped
        case failed(errno: Int32)
    }

    /// Reads until end of input, a read error or ``stop()``, feeding every chunk to `body`. Blocks the caller.
    func readLoop(_ body: (UnsafeRawBufferPointer) -> Void) -> Outcome {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var descriptors = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                // poll(2) cannot watch this descriptor; fall back to plain blocking reads.
                return plainReadLoop(buffer, body)
            }
            if descriptors[1].revents != 0 { return .stopped }
            if descriptors[0].revents & Int16(POLLNVAL) != 0 { return plainReadLoop(buffer, body) }
            guard descriptors[0].revents != 0 else { continue }
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } else if count == 0 {
                return .endOfInput
            } else if errno != EINTR && errno != EAGAIN {
                return .failed(errno: errno)
            }
        }
    }

    private func plainReadLoop(_ buffer: UnsafeMutableRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void)
        -> Outcome
    {
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } else if count == 0 {
                return .endOfInput
            } else if errno != EINTR {
                return .failed(errno: errno)
            }
        }
    }
}
