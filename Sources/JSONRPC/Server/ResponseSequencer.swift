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
    /// Gives back the in-flight places of this many delivered lines.
    private let release: @Sendable (Int) -> Void

    init(writer: OutputWriter, ordered: Bool, release: @escaping @Sendable (Int) -> Void) {
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
            release(1)
            return
        }
        // The run that became writable goes out as one write, under the lock, so the order of lines is the order
        // of tickets.
        state.withLockedValue { state in
            state.waiting[ticket.sequence] = .some(line)
            var run: [UInt8] = []
            let first = state.nextToWrite
            while let next = state.waiting.removeValue(forKey: state.nextToWrite) {
                if let next { run += next }
                state.nextToWrite += 1
            }
            release(Int(state.nextToWrite - first))
            writer.write(lines: run)
        }
    }

    /// Ordered mode: hands over a run of answers made together (``ImmediateOutput``), each `tickets[i]`'s line
    /// ending at `tickets[i].end` in `lines`; one lock and one write for all of them.
    func deliver(_ tickets: [(ticket: Ticket, end: Int)], in lines: [UInt8]) {
        state.withLockedValue { state in
            let first = state.nextToWrite
            // The common case, every answer's turn come and none waiting after them: the lines go as they are.
            if tickets.first?.ticket.sequence == first,
                tickets.last?.ticket.sequence == first + UInt64(tickets.count) - 1,
                state.waiting[first + UInt64(tickets.count)] == nil
            {
                state.nextToWrite += UInt64(tickets.count)
                release(tickets.count)
                writer.write(lines: lines)
                return
            }
            var run: [UInt8] = []
            var start = 0
            for (ticket, end) in tickets {
                defer { start = end }
                if ticket.sequence == state.nextToWrite {
                    run += lines[start..<end]
                    state.nextToWrite += 1
                } else {
                    state.waiting[ticket.sequence] = .some(Array(lines[start..<end]))
                }
                while let next = state.waiting.removeValue(forKey: state.nextToWrite) {
                    if let next { run += next }
                    state.nextToWrite += 1
                }
            }
            release(Int(state.nextToWrite - first))
            writer.write(lines: run)
        }
    }
}

/// The position of an answer in the output, taken when its line is read.
package struct Ticket: Sendable, Hashable {
    let sequence: UInt64
}
