import Testing

@testable import JSONRPC

/// The line queue's decisions driven with plain values and no threads: when a pusher or the responder waits, and
/// when the other side must be woken. A line is an `Int`.
@Suite("Line queue state machine")
struct LineQueueStateMachineTests {
    typealias Machine = LineQueue.StateMachine<Int>

    @Test("the first batch into an empty queue wakes the responder; later ones do not; empty batches are dropped")
    func wakeResponder() {
        var machine = Machine(capacity: 4)
        let first = machine.push([1])
        let empty = machine.push([])
        let second = machine.push([2, 3])
        #expect(first == .pushed(wakeResponder: true))
        #expect(empty == .dropped)
        #expect(second == .pushed(wakeResponder: false))
        #expect(machine.stored == 2)
    }

    @Test("a full queue holds the pusher; the pop that makes room wakes it, and its push then goes in")
    func bound() {
        var machine = Machine(capacity: 2)
        _ = machine.push([1])
        _ = machine.push([2])
        let held = machine.push([3])
        let popped = machine.pop()
        let retried = machine.push([3])
        #expect(held == .wait)
        #expect(popped == .popped([1], wakePusher: true))
        #expect(retried == .pushed(wakeResponder: false))
    }

    @Test("batches come out in order; an empty queue holds the responder until finish, which drains then ends")
    func orderAndFinish() {
        var machine = Machine(capacity: 4)
        let waiting = machine.pop()
        _ = machine.push([1])
        _ = machine.push([2, 3])
        machine.finish()
        let steps = [machine.pop(), machine.pop(), machine.pop()]
        #expect(waiting == .wait)
        #expect(steps == [.popped([1], wakePusher: false), .popped([2, 3], wakePusher: false), .end])
    }

    @Test("close drops what waits, refuses later batches and ends the responder")
    func close() {
        var machine = Machine(capacity: 1)
        _ = machine.push([1])
        let held = machine.push([2])
        machine.close()
        let retried = machine.push([2])
        let popped = machine.pop()
        #expect(held == .wait)
        #expect(retried == .dropped, "the held pusher is released and its batch dropped")
        #expect(popped == .end)
        #expect(machine.stored == 0)
    }
}
