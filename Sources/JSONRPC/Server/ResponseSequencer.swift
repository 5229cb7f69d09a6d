import NIOConcurrencyHelpers

/// Puts answers on the writer: at once (the default), or in request order (`--ordered`).
///
/// Each line that will be answered takes a ticket in reading order; ``deliver(_:line:)`` hands over its answer, or
/// `nil` when the line turned out to need none. In ordered mode an answer waits here until every earlier ticket is
/// delivered. A delivery also returns the line's in-flight slot, so ordered mode cannot buffer without bound.
final class ResponseSequencer: Sendable {
    private struct State {
        var nextTicket: UInt64 = 0
        var nextToWrite: UInt64 = 0
        var waiting: [UInt64: [UInt8]?] = [:]
    }

    private let writer: OutputWriter
    private let ordered: Bool
    private let state = NIOLockedValueBox(State())
    private let release: @Sendable () -> Void

    init(writer: OutputWriter, ordered: Bool, release: @escaping @Sendable () -> Void) {
        self.writer = writer
        self.ordered = ordered
        self.release = release
    }

    func takeTicket() -> Ticket {
        state.withLockedValue { state in
            defer { state.nextTicket += 1 }
            return Ticket(sequence: state.nextTicket)
        }
    }

    /// Whether answers must wait for earlier tickets.
    var isOrdered: Bool { ordered }

    /// Hands over the answer for `ticket`: a whole line with its newline, or `nil` for none.
    func deliver(_ ticket: Ticket, line: [UInt8]?) {
        guard ordered else {
            if let line { writer.write(lines: line) }
            release()
            return
        }
        // The run that became writable goes out as one write, under the lock, so the order of lines is the order
        // of tickets.
        state.withLockedValue { state in
            state.waiting[ticket.sequence] = .some(line)
            var run: [UInt8] = []
            while let next = state.waiting.removeValue(forKey: state.nextToWrite) {
                if let next { run += next }
                state.nextToWrite += 1
                release()
            }
            writer.write(lines: run)
        }
    }
}
