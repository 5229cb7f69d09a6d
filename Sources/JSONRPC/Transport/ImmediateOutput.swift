/// Answers the responder thread produced while handling one input chunk, written together when the chunk is done.
///
/// One `write(2)` per chunk instead of per line is most of the difference between a protocol loop that is bound by
/// system calls and one bound by parsing. Latency does not suffer: a host that sends one line and waits gets a
/// chunk of one line, flushed at once.
///
/// - Important: Responder-thread only; not Sendable.
final class ImmediateOutput {
    private let writer: OutputWriter
    private var buffer: [UInt8] = []
    /// Write early past this size, so a huge chunk of small requests cannot hold many answers back.
    private let flushBytes = 64 * 1024

    init(writer: OutputWriter) {
        self.writer = writer
        buffer.reserveCapacity(flushBytes)
    }

    /// Appends the serialized answer and its newline.
    func append(_ answer: OutputLine) {
        answer.append(to: &buffer)
        if buffer.count >= flushBytes { flush() }
    }

    /// Hands the buffered answers to the writer, then waits while the host is behind on reading (backpressure).
    func flush() {
        guard !buffer.isEmpty else { return }
        writer.writeNow(lines: buffer)
        buffer.removeAll(keepingCapacity: true)
        writer.waitForRoom()
    }
}

@available(*, unavailable, message: "the responder thread's own buffer")
extension ImmediateOutput: Sendable {}
