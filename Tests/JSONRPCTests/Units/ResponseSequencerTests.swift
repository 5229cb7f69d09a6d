import Foundation
import Synchronization
import Testing

@testable import JSONRPC

/// `--ordered`: answers completed out of order are written in ticket order; every delivery gives its slot back.
@Suite("Response sequencer")
struct ResponseSequencerTests {
    private static func output(_ body: (OutputWriter) async -> Void) async -> String {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        let writer = OutputWriter(fd: ends[1])
        await body(writer)
        await writer.finish()
        close(ends[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        close(ends[0])
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("ordered: completions 2, 0, 3, 1 (1 with no answer) come out as 0, 2, 3")
    func ordered() async {
        let released = Atomic<Int>(0)
        let text = await Self.output { writer in
            let sequencer = ResponseSequencer(writer: writer, ordered: true) { released.add($0, ordering: .relaxed) }
            let tickets = (0..<4).map { _ in sequencer.takeTicket() }
            sequencer.deliver(tickets[2], line: Array("two\n".utf8))
            #expect(released.load(ordering: .relaxed) == 0)
            sequencer.deliver(tickets[0], line: Array("zero\n".utf8))
            #expect(released.load(ordering: .relaxed) == 1)
            sequencer.deliver(tickets[3], line: Array("three\n".utf8))
            sequencer.deliver(tickets[1], line: nil)
            #expect(released.load(ordering: .relaxed) == 4)
        }
        #expect(text == "zero\ntwo\nthree\n")
    }

    @Test("unordered: each answer goes out as it completes")
    func unordered() async {
        let released = Atomic<Int>(0)
        let text = await Self.output { writer in
            let sequencer = ResponseSequencer(writer: writer, ordered: false) { released.add($0, ordering: .relaxed) }
            let first = sequencer.takeTicket()
            let second = sequencer.takeTicket()
            sequencer.deliver(second, line: Array("second\n".utf8))
            sequencer.deliver(first, line: Array("first\n".utf8))
        }
        #expect(text == "second\nfirst\n")
        #expect(released.load(ordering: .relaxed) == 2)
    }

    @Test("many tasks completing in random order still write in ticket order")
    func concurrentOrdered() async {
        let text = await Self.output { writer in
            let sequencer = ResponseSequencer(writer: writer, ordered: true) { _ in }
            let tickets = (0..<200).map { _ in sequencer.takeTicket() }
            await withTaskGroup(of: Void.self) { group in
                for (index, ticket) in tickets.enumerated().shuffled() {
                    group.addTask { sequencer.deliver(ticket, line: Array("\(index)\n".utf8)) }
                }
            }
        }
        #expect(text == (0..<200).map { "\($0)\n" }.joined())
    }

    @Test("a run made together: in order as it is, or waiting for an earlier answer still at work")
    func runs() async {
        let released = Atomic<Int>(0)
        let text = await Self.output { writer in
            let sequencer = ResponseSequencer(writer: writer, ordered: true) { released.add($0, ordering: .relaxed) }
            let tickets = (0..<6).map { _ in sequencer.takeTicket() }
            // 0 and 1 made together, their turn come: out as they are.
            sequencer.deliver([(tickets[0], 2), (tickets[1], 4)], in: Array("a\nb\n".utf8))
            #expect(released.load(ordering: .relaxed) == 2)
            // 3 and 5 made together while 2 and 4 are at work: they wait.
            sequencer.deliver([(tickets[3], 2), (tickets[5], 4)], in: Array("d\nf\n".utf8))
            #expect(released.load(ordering: .relaxed) == 2)
            sequencer.deliver(tickets[2], line: Array("c\n".utf8))
            #expect(released.load(ordering: .relaxed) == 4)
            sequencer.deliver(tickets[4], line: nil)
            #expect(released.load(ordering: .relaxed) == 6)
        }
        #expect(text == "a\nb\nc\nd\nf\n")
    }
}
