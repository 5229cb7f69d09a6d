import Testing

@testable import BoxOfficeCore

/// One shared upstream call's callers, driven with plain values and no tasks: a waiter is an `Int`, an outcome a
/// `String`. Who gets the outcome, who is told "cancelled", and when the call itself is cancelled.
@Suite("Coalescing flight state machine")
struct CoalescingFlightStateMachineTests {
    typealias Machine = CoalescingFetcher.Flight.StateMachine<Int, String>

    @Test("callers that wait get the outcome once it comes, in the order they joined")
    func finishResumesEveryWaiter() {
        var machine = Machine()
        let tickets = (0..<3).map { _ in machine.join() }
        let waits = [machine.wait(tickets[2], 12), machine.wait(tickets[0], 10), machine.wait(tickets[1], 11)]
        let finished = machine.finish("body")
        #expect(waits == [Machine.Action.none, Machine.Action.none, Machine.Action.none])
        #expect(finished == .resume([10, 11, 12], "body"))
        #expect(machine.members == 3)
    }

    @Test("a caller that waits after the call finished gets the outcome at once")
    func waitAfterFinish() {
        var machine = Machine()
        let ticket = machine.join()
        let finished = machine.finish("body")
        let waited = machine.wait(ticket, 1)
        #expect(finished == .resume([], "body"))
        #expect(waited == .resume([1], "body"))
    }

    @Test("a second outcome is refused: nobody is resumed twice")
    func finishOnce() {
        var machine = Machine()
        let ticket = machine.join()
        _ = machine.wait(ticket, 1)
        let first = machine.finish("first")
        let second = machine.finish("second")
        let latecomer = machine.join()
        let late = machine.wait(latecomer, 2)
        #expect(first == .resume([1], "first"))
        #expect(second == Machine.Action.none)
        #expect(late == .resume([2], "first"), "the first outcome stays")
    }

    @Test("a caller cancelled while waiting stops at once; the call goes on for the others")
    func cancelWhileWaiting() {
        var machine = Machine()
        let stays = machine.join()
        let quits = machine.join()
        _ = machine.wait(stays, 1)
        _ = machine.wait(quits, 2)
        let left = machine.leave(quits)
        let finished = machine.finish("body")
        #expect(left == .cancel(2, cancelCall: false))
        #expect(machine.members == 1)
        #expect(finished == .resume([1], "body"))
    }

    @Test("a caller cancelled before it waits is refused when it comes to wait")
    func cancelBeforeWaiting() {
        var machine = Machine()
        _ = machine.join()
        let quits = machine.join()
        let left = machine.leave(quits)
        let waited = machine.wait(quits, 2)
        #expect(left == Machine.Action.none)
        #expect(waited == .cancel(2, cancelCall: false))
    }

    @Test("when the last caller leaves before the outcome, the call is cancelled")
    func lastCallerCancelsTheCall() {
        var machine = Machine()
        let first = machine.join()
        let second = machine.join()
        _ = machine.wait(first, 1)
        let firstLeft = machine.leave(first)
        let secondLeft = machine.leave(second)
        #expect(firstLeft == .cancel(1, cancelCall: false))
        #expect(secondLeft == .cancel(nil, cancelCall: true), "it had not waited yet; the call has nobody left")
        #expect(machine.members == 0)
    }

    @Test("a caller cancelled after the outcome changes nothing")
    func cancelAfterFinish() {
        var machine = Machine()
        let ticket = machine.join()
        _ = machine.wait(ticket, 1)
        _ = machine.finish("body")
        let left = machine.leave(ticket)
        #expect(left == Machine.Action.none, "neither a second resume nor a cancelled call")
    }
}
