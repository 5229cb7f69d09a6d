import Testing

@testable import JSONRPC

/// The one-shot signal driven with plain values and no tasks: fired before or after the wait, the waiting task
/// cancelled before or after, fired twice. A waiter is an `Int`.
@Suite("Cancellation signal state machine")
struct CancellationSignalStateMachineTests {
    typealias Machine = CancellationSignal.StateMachine<Int>

    @Test("a fire resumes the waiter once; a second fire resumes nobody and keeps the first reason")
    func fireAfterWait() {
        var machine = Machine()
        let waited = machine.wait(1)
        let fired = machine.fire(byShutdown: false)
        let firedAgain = machine.fire(byShutdown: true)
        #expect(waited == Machine.Action.none)
        #expect(fired == .resume(1))
        #expect(firedAgain == Machine.Action.none)
        #expect(machine.isFired && !machine.firedByShutdown)
    }

    @Test("a wait after the fire returns at once")
    func fireBeforeWait() {
        var machine = Machine()
        let fired = machine.fire(byShutdown: true)
        let waited = machine.wait(1)
        #expect(fired == Machine.Action.none)
        #expect(waited == .resume(1))
        #expect(machine.isFired && machine.firedByShutdown)
    }

    @Test("the waiting task cancelled: the waiter is resumed once, and a later fire still records its reason")
    func cancelWhileWaiting() {
        var machine = Machine()
        _ = machine.wait(1)
        let cancelled = machine.waiterCancelled()
        let cancelledAgain = machine.waiterCancelled()
        let fired = machine.fire(byShutdown: true)
        #expect(cancelled == .resume(1))
        #expect(cancelledAgain == Machine.Action.none)
        #expect(fired == Machine.Action.none, "the waiter was resumed already")
        #expect(machine.isFired && machine.firedByShutdown)
    }

    @Test("a task cancelled before it waits is not kept waiting")
    func cancelBeforeWait() {
        var machine = Machine()
        let cancelled = machine.waiterCancelled()
        let waited = machine.wait(1)
        #expect(cancelled == Machine.Action.none)
        #expect(waited == .resume(1))
        #expect(!machine.isFired, "cancelling the wait does not fire the signal")
    }

    @Test("a cancellation after the fire resumes nobody")
    func cancelAfterFire() {
        var machine = Machine()
        _ = machine.wait(1)
        let fired = machine.fire(byShutdown: false)
        let cancelled = machine.waiterCancelled()
        #expect(fired == .resume(1))
        #expect(cancelled == Machine.Action.none)
    }
}
