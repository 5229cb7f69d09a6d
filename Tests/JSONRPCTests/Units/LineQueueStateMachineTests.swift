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

    // The reader answering a small batch itself: only while the responder has nothing to do, one answering
    // thread at a time, and never past the end of input before the reader's last answers are handed on.

    @Test("an idle responder with an empty queue lets the reader answer; queued or taken work does not")
    func claimOnlyWhenIdle() {
        var machine = Machine(capacity: 4)
        let idle = machine.claim()
        let ended = machine.endClaim()
        _ = machine.push([1])
        let queued = machine.claim()
        let popped = machine.pop()
        let answering = machine.claim()
        let nextPop = machine.pop()
        let afterwards = machine.claim()
        #expect(idle && !ended)
        #expect(!queued, "a batch waits for the responder: the reader's would overtake it")
        #expect(popped == .popped([1], wakePusher: false))
        #expect(!answering, "the responder is still answering the batch it took")
        #expect(nextPop == .wait)
        #expect(afterwards, "the responder asked for more: it is idle again")
        #expect(machine.claims == 2)
    }

    @Test("a finish or close while the reader answers holds the responder's end until the reader is done")
    func endWaitsForTheReader() {
        for closing in [false, true] {
            var machine = Machine(capacity: 4)
            let claimed = machine.claim()
            #expect(claimed)
            if closing { machine.close() } else { machine.finish() }
            let early = machine.pop()
            let wake = machine.endClaim()
            let late = machine.pop()
            #expect(early == .wait, "the reader may still start jobs")
            #expect(wake, "the waiting responder is woken")
            let afterEnd = machine.claim()
            #expect(late == .end)
            #expect(!afterEnd, "nothing is answered after the end")
        }
    }

    // A pusher that must never wait (the event loop reading stdin): it offers, stops reading when told the queue
    // is full, and is resumed once by the pop that makes room.

    @Test("an offer never waits: the one that fills the queue says so, the pop that makes room resumes it, once")
    func offerPausesAndResumes() {
        var machine = Machine(capacity: 2)
        let first = machine.offer([1])
        let filling = machine.offer([2])
        let popped = machine.pop()
        let next = machine.pop()
        let refilled = [machine.offer([3]), machine.offer([4])]
        let again = machine.pop()
        #expect(first == .pushed(wakeResponder: true, full: false))
        #expect(filling == .pushed(wakeResponder: false, full: true))
        #expect(popped == .popped([1], wakePusher: true, resumePusher: true))
        #expect(next == .popped([2], wakePusher: false), "resumed once, not at every pop")
        #expect(refilled == [.pushed(wakeResponder: true, full: false), .pushed(wakeResponder: false, full: true)])
        #expect(again == .popped([3], wakePusher: true, resumePusher: true))
    }

    @Test("an offer into a full queue (the last lines at end of input) is taken all the same; a closed queue drops it")
    func offerPastTheBound() {
        var machine = Machine(capacity: 1)
        _ = machine.offer([1])
        let past = machine.offer([2])
        machine.finish()
        let steps = [machine.pop(), machine.pop(), machine.pop()]
        machine.close()
        let closed = machine.offer([3])
        let empty = machine.offer([])
        #expect(past == .pushed(wakeResponder: false, full: true))
        #expect(steps == [.popped([1], wakePusher: true), .popped([2], wakePusher: true, resumePusher: true), .end])
        #expect(closed == .dropped && empty == .dropped)
    }
}
