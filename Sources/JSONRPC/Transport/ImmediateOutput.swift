/// Answers the responder thread (or the reader, ``LineQueue/claim()``) produced while handling one input chunk,
/// written together when the chunk is done.
///
/// One `write(2)` per chunk instead of per line is most of the difference between a protocol loop that is bound by
/// system calls and one bound by parsing. Latency does not suffer: a host that sends one line and waits gets a
/// chunk of one line, flushed at once.
///
/// In ordered mode (`--ordered`, and `pipe`) each answer keeps its ticket, and the flush hands the chunk's answers to
/// the ``ResponseSequencer`` together: one lock and one write for the lot, where one delivery per line made `pipe`
/// over 100,000 kept answers a third slower than the unordered face.
///
/// - Important: One per answering thread (the responder's, and the reader's for the chunks it answers itself);
///   not Sendable.
final class ImmediateOutput {
    private let writer: OutputWriter
    private var buffer: [UInt8] = []
    /// In ordered mode, each answer's ticket and where its line ends in `buffer`.
    private var tickets: [(ticket: Ticket, end: Int)] = []
    /// Write early past this size, so a huge chunk of small requests cannot hold many answers back.
    private let flushBytes = 64 * 1024
    /// False for a thread that must never wait (the event loop reading stdin, ``PumpedInput``): it answers a chunk
    /// only when the writer has room, and a chunk's answers are bounded, so skipping the wait loses no backpressure.
    private let waitsForRoom: Bool

    init(writer: OutputWriter, waitsForRoom: Bool = true) {
        self.writer = writer
        self.waitsForRoom = waitsForRoom
        buffer.reserveCapacity(flushBytes)
    }

    /// Appends the serialized answer and its newline.
    func append(_ answer: OutputLine) {
        answer.append(to: &buffer)
        if buffer.count >= flushBytes { flush() }
    }

    /// Ordered mode: appends (through `line`) the line, with its newline, of the answer in `ticket`'s place;
    /// `sequencer` gets it at the flush.
    func append(in ticket: Ticket, _ sequencer: ResponseSequencer, _ line: (inout [UInt8]) -> Void) {
        line(&buffer)
        tickets.append((ticket, buffer.count))
        if buffer.count >= flushBytes { flush(sequencer) }
    }

    /// Hands the buffered answers to the writer (through `sequencer` in ordered mode), then waits while the host is
    /// behind on reading (backpressure), unless this output never waits.
    func flush(_ sequencer: ResponseSequencer? = nil) {
        guard !buffer.isEmpty else { return }
        if tickets.isEmpty {
            writer.writeNow(lines: buffer)
        } else {
            guard let sequencer else { preconditionFailure("ordered answers are flushed through the sequencer") }
            sequencer.deliver(tickets, in: buffer)
            tickets.removeAll(keepingCapacity: true)
        }
        buffer.removeAll(keepingCapacity: true)
        if waitsForRoom { writer.waitForRoom() }
    }
}

@available(*, unavailable, message: "an answering thread's own buffer")
extension ImmediateOutput: Sendable {}
