import Testing

@testable import BoxOfficeCore

/// The limiter's decisions driven with plain values, no tasks: places, first come first served, and cancellation
/// before, while and after waiting. A waiter is an `Int`.
@Suite("Async limiter state machine")
struct AsyncLimiterStateMachineTests {
    typealias Machine = AsyncLimiter.StateMachine<Int>

    /// `waiter` asks for a place under a fresh id: the id (for ``Machine/cancel(_:)``) and what the shell does.
    private static func ask(
        _ machine: inout Machine, _ waiter: Int, cancelled: Bool = false
    ) -> (id: UInt64, action: Machine.Action) {
        let id = machine.nextID()
        return (id, machine.acquire(id, waiter, cancelled: cancelled))
    }

    @Test("places are granted up to the width; then callers queue")
    func width() {
        var machine = Machine(width: 2)
        let first = Self.ask(&machine, 1).action
        let second = Self.ask(&machine, 2).action
        let third = Self.ask(&machine, 3).action
        #expect(first == .resume(1))
        #expect(second == .resume(2))
        #expect(third == Machine.Action.none)
        #expect(machine.waiting == 1)
    }

    @Test("a width below one is one")
    func minimumWidth() {
        var machine = Machine(width: 0)
        let first = Self.ask(&machine, 1).action
        let second = Self.ask(&machine, 2).action
        #expect(first == .resume(1))
        #expect(second == Machine.Action.none)
    }

    @Test("releases hand the place to waiters in arrival order, then back to the pool")
    func fifo() {
        var machine = Machine(width: 1)
        for waiter in 1...4 { _ = Self.ask(&machine, waiter) }
        let releases = (0..<4).map { _ in machine.release() }
        #expect(releases == [.resume(2), .resume(3), .resume(4), Machine.Action.none])
        #expect(machine.waiting == 0)
        let next = Self.ask(&machine, 5).action
        #expect(next == .resume(5), "the place went back to the pool")
    }

    @Test("a waiter cancelled while queued fails and leaves the queue; the others keep their order")
    func cancelledWhileWaiting() {
        var machine = Machine(width: 1)
        _ = Self.ask(&machine, 1)
        let quitter = Self.ask(&machine, 2).id
        _ = Self.ask(&machine, 3)
        let cancelled = machine.cancel(quitter)
        #expect(cancelled == .fail(2))
        #expect(machine.waiting == 1)
        let released = machine.release()
        #expect(released == .resume(3))
    }

    @Test("a task cancelled before it asks fails without taking a place")
    func cancelledBeforeAsking() {
        var machine = Machine(width: 1)
        let (id, action) = Self.ask(&machine, 1, cancelled: true)
        let handler = machine.cancel(id)
        let next = Self.ask(&machine, 2).action
        #expect(action == .fail(1))
        #expect(handler == Machine.Action.none, "its cancellation handler finds nothing to fail")
        #expect(next == .resume(2), "the place was not taken")
    }

    @Test("a cancellation after the place was granted, or a second one, does nothing")
    func cancelledAfterGrant() {
        var machine = Machine(width: 1)
        let holder = Self.ask(&machine, 1).id
        let lateForHolder = machine.cancel(holder)
        let waiter = Self.ask(&machine, 2).id
        let first = machine.cancel(waiter)
        let second = machine.cancel(waiter)
        let released = machine.release()
        #expect(lateForHolder == Machine.Action.none)
        #expect(first == .fail(2))
        #expect(second == Machine.Action.none, "a waiter is failed once")
        #expect(released == Machine.Action.none, "the place went back to the pool, not to the cancelled waiter")
    }
}
