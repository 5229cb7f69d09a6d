import Glibc

/// Splits a byte stream into lines, pure and allocation-light.
///
/// Rules (protocol.md §1): lines end at `\n`; one trailing `\r` is stripped; a line longer than `maxLineBytes`
/// (counted without its terminator) is reported once as ``Event/tooLong`` and the rest of it is discarded as it
/// arrives, never buffered. A complete line inside one chunk is handed out without copying.
///
/// Why not NIO's `LineBasedFrameDecoder`: stdin is read by a thread with blocking `read(2)` (a regular file cannot
/// be polled by an event loop), and the decoder has no line-length limit: it keeps a line in memory until its
/// newline, where this one discards an over-long line as it arrives.
package struct LineFramer: Sendable {
    package enum Event {
        /// A line's bytes, valid only during the callback.
        case line(UnsafeRawBufferPointer)
        case tooLong
    }

    package let maxLineBytes: Int
    private var partial: [UInt8] = []
    private var discarding = false

    package init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Feeds one chunk; calls `body` for every line or over-long line it completes.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Event) -> Void) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            let remaining = chunk.count - start
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), remaining) else {
                accumulate(UnsafeRawBufferPointer(start: base + start, count: remaining), body)
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            let segment = UnsafeRawBufferPointer(start: base + start, count: end - start)
            start = end + 1
            if discarding {
                discarding = false
                continue
            }
            if partial.isEmpty {
                emit(segment, body)
            } else {
                partial.append(contentsOf: segment)
                partial.withUnsafeBytes { emit($0, body) }
                partial.removeAll(keepingCapacity: partial.capacity <= 64 * 1024)
            }
        }
    }

    /// Flushes a last line that had no terminating newline (at end of input).
    package mutating func finish(_ body: (Event) -> Void) {
        defer {
            partial = []
            discarding = false
        }
        guard !discarding, !partial.isEmpty else { return }
        partial.withUnsafeBytes { emit($0, body) }
    }

    private mutating func accumulate(_ tail: UnsafeRawBufferPointer, _ body: (Event) -> Void) {
        guard !discarding else { return }
        // One extra byte of room for a `\r` that the terminator may still strip.
        if partial.count + tail.count > maxLineBytes + 1 {
            partial = []
            discarding = true
            body(.tooLong)
            return
        }
        partial.append(contentsOf: tail)
    }

    private func emit(_ line: UnsafeRawBufferPointer, _ body: (Event) -> Void) {
        var count = line.count
        if count > 0, line[count - 1] == UInt8(ascii: "\r") { count -= 1 }
        if count > maxLineBytes {
            body(.tooLong)
        } else {
            body(.line(UnsafeRawBufferPointer(rebasing: line[..<count])))
        }
    }

    /// Whether a line holds only JSON white space, and is therefore ignored.
    package static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    }
}
