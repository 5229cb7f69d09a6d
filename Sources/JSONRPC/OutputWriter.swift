import Foundation

/// The one writer of the protocol stream: whole lines, in the order they are handed over, never interleaved.
///
/// Whoever hands over a line while nobody is writing writes it (and anything queued meanwhile) with `write(2)`;
/// lines handed over during a write are queued and go out in the same next `write(2)`, so a burst costs few system
/// calls. A caller blocks only when more than ``highWaterBytes`` are queued — the host is not reading — which is the
/// worker's backpressure on output. On `EPIPE` (the host closed stdout) ``onHostGone`` runs once and all further
/// output is dropped.
public final class OutputWriter: @unchecked Sendable {
    // @unchecked: every stored var is read and written only while `condition` is locked.
    private let fd: Int32
    private let condition = NSCondition()
    private var queued: [UInt8] = []
    private var writing = false
    private var hostGone = false
    private let onHostGone: @Sendable () -> Void
    /// Bytes that may wait in memory before writers block.
    public let highWaterBytes: Int

    public init(fd: Int32, highWaterBytes: Int = 4 << 20, onHostGone: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.highWaterBytes = highWaterBytes
        self.onHostGone = onHostGone
    }

    /// Writes whole protocol lines: `bytes` is one or more lines, each ending in a newline.
    public func write(lines bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        condition.lock()
        if hostGone {
            condition.unlock()
            return
        }
        if writing {
            while queued.count > highWaterBytes && writing && !hostGone {
                condition.wait()
            }
            if writing {
                queued.append(contentsOf: bytes)
                condition.unlock()
                return
            }
        }
        writing = true
        var batch = queued.isEmpty ? bytes : queued + bytes
        queued = []
        condition.unlock()
        while true {
            let delivered = writeFully(batch)
            condition.lock()
            if !delivered && !hostGone {
                hostGone = true
                queued = []
                writing = false
                condition.broadcast()
                condition.unlock()
                onHostGone()
                return
            }
            if queued.isEmpty || hostGone {
                writing = false
                condition.broadcast()
                condition.unlock()
                return
            }
            batch = queued
            queued = []
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Blocks until everything handed over has been written (or the host is gone).
    public func flush() {
        condition.lock()
        while writing && !hostGone {
            condition.wait()
        }
        condition.unlock()
    }

    /// `write(2)` until done; false on EPIPE or another unrecoverable error.
    private func writeFully(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if result >= 0 {
                    offset += result
                } else if errno == EINTR || errno == EAGAIN {
                    if errno == EAGAIN {
                        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&descriptor, 1, -1)
                    }
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
