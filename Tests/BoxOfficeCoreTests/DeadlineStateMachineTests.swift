import Testing

@testable import BoxOfficeCore

/// The race between an operation and its timer, driven in every order with plain values and no tasks: the caller
/// is resumed once, and a timer that lost is cancelled however late it was handed over. A timer is an `Int`.
@Suite("Deadline state machine")
struct DeadlineStateMachineTests {
    typealias Machine = Deadline.StateMachine<Int>

    @Test("the operation wins: the caller gets its result, the timer is cancelled, and the timer's expiry is refused")
    func operationFirst() {
        var machine = Machine()
        let started = machine.timerStarted(1)
        let ended = machine.operationEnded()
        let fired = machine.timerFired()
        #expect(started == Machine.Action.none)
        #expect(ended == .resume(cancelTimer: 1))
        #expect(fired == Machine.Action.none)
    }

    @Test("the timer wins: the caller gets the expiry, and the operation's late result is refused")
    func timerFirst() {
        var machine = Machine()
        let started = machine.timerStarted(1)
        let fired = machine.timerFired()
        let ended = machine.operationEnded()
        #expect(started == Machine.Action.none)
        #expect(fired == .expire)
        #expect(ended == Machine.Action.none)
    }

    @Test("an operation that ends before the timer is handed over wins, and the timer is cancelled when it comes")
    func operationBeforeTimerStarted() {
        var machine = Machine()
        let ended = machine.operationEnded()
        let started = machine.timerStarted(1)
        let fired = machine.timerFired()
        #expect(ended == .resume(cancelTimer: nil))
        #expect(started == .cancelTimer(1))
        #expect(fired == Machine.Action.none)
    }

    @Test("a second report of either racer does nothing")
    func decidedOnce() {
        var machine = Machine()
        let first = machine.operationEnded()
        let second = machine.operationEnded()
        #expect(first == .resume(cancelTimer: nil))
        #expect(second == Machine.Action.none)

        var expired = Machine()
        let fired = expired.timerFired()
        let firedAgain = expired.timerFired()
        #expect(fired == .expire)
        #expect(firedAgain == Machine.Action.none)
    }
}
