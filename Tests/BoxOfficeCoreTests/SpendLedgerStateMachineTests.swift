import Testing

@testable import BoxOfficeCore

/// The spend ledger's bookkeeping driven with plain values, no store and no tasks: a waiter is an `Int`, and the
/// test plays the drain (take a batch, report the write).
@Suite("Spend ledger state machine")
struct SpendLedgerStateMachineTests {
    typealias Machine = SpendLedger.StateMachine<Int>

    static let day = CalendarDate(year: 2026, month: 1, day: 5)!

    /// The calls per lease of the batch the drain takes, and the spend it reaches; nil when the drain stops.
    private static func write(_ step: Machine.DrainStep) -> (counts: [Int64: Int], through: UInt64)? {
        guard case .write(let batch, let through) = step else { return nil }
        return (batch.mapValues(\.count), through)
    }

    /// The flushes a stopping drain resumes; nil when it writes instead.
    private static func stop(_ step: Machine.DrainStep) -> [Int]? {
        guard case .stop(let flushes) = step else { return nil }
        return flushes
    }

    @Test("the first spend starts a drain; spends while it runs are numbered and start none")
    func oneDrain() {
        var machine = Machine()
        let first = machine.spent(7, day: Self.day)
        let second = machine.spent(7, day: Self.day)
        #expect(first.sequence == 1 && first.action == .startDrain)
        #expect(second.sequence == 2 && second.action == Machine.Action.none)
        #expect(machine.draining)
    }

    @Test("a write releases only the answers it covers; the next batch holds what came meanwhile")
    func writeReleasesCoveredAnswers() {
        var machine = Machine()
        _ = machine.spent(7, day: Self.day)
        _ = machine.spent(8, day: Self.day)
        let early = machine.committed(through: 1, 10)
        let batch = Self.write(machine.nextBatch())
        let third = machine.spent(7, day: Self.day)
        let late = machine.committed(through: 3, 30)
        let wrote = machine.wrote(through: 2, failed: [:])
        let next = Self.write(machine.nextBatch())
        let wroteNext = machine.wrote(through: 3, failed: [:])
        let end = Self.stop(machine.nextBatch())
        #expect(early == Machine.Action.none && late == Machine.Action.none)
        #expect(batch?.counts == [7: 1, 8: 1] && batch?.through == 2)
        #expect(third.action == Machine.Action.none, "the running drain takes it")
        #expect(wrote == .resume([10]))
        #expect(next?.counts == [7: 1] && next?.through == 3)
        #expect(wroteNext == .resume([30]))
        #expect(end == [])
        #expect(!machine.draining)
    }

    @Test("an answer whose spend is written already does not wait")
    func alreadyWritten() {
        var machine = Machine()
        _ = machine.spent(7, day: Self.day)
        _ = machine.nextBatch()
        _ = machine.wrote(through: 1, failed: [:])
        let waited = machine.committed(through: 1, 10)
        #expect(waited == .resume([10]))
    }

    @Test("a failing write releases every waiting answer, keeps the failed spends and adds them to the next batch")
    func failingWrite() {
        var machine = Machine()
        _ = machine.spent(7, day: Self.day)
        _ = machine.spent(7, day: Self.day)
        _ = machine.spent(8, day: Self.day)
        let waiting = machine.committed(through: 3, 10)
        _ = machine.nextBatch()
        let failed = machine.wrote(through: 3, failed: [7: (Self.day, 2)])
        let failingAfterFailure = machine.failing
        let whileFailing = machine.committed(through: 3, 20)
        _ = machine.spent(7, day: Self.day)
        let retry = Self.write(machine.nextBatch())
        let recovered = machine.wrote(through: 4, failed: [:])
        let afterRecovery = machine.committed(through: 5, 30)
        #expect(waiting == Machine.Action.none)
        #expect(failed == .resume([10]) && failingAfterFailure)
        #expect(whileFailing == .resume([20]), "answers do not wait for a failing store")
        #expect(retry?.counts == [7: 3] && retry?.through == 4)
        #expect(recovered == Machine.Action.none && !machine.failing)
        #expect(afterRecovery == Machine.Action.none, "once writes work again, answers wait for them again")
    }

    @Test("flush returns at once with nothing to write, and otherwise when the drain ends")
    func flush() {
        var machine = Machine()
        let idle = machine.flush(1)
        _ = machine.spent(7, day: Self.day)
        let busy = machine.flush(2)
        _ = machine.nextBatch()
        let wrote = machine.wrote(through: 1, failed: [:])
        let end = Self.stop(machine.nextBatch())
        #expect(idle == .resume([1]))
        #expect(busy == Machine.Action.none)
        #expect(wrote == Machine.Action.none, "a flush waits for the drain, not for one write")
        #expect(end == [2])
    }

    @Test("a drain that gave up releases the flushes; a later flush starts a drain for the spends left behind")
    func gaveUp() {
        var machine = Machine()
        _ = machine.spent(7, day: Self.day)
        let flushing = machine.flush(1)
        _ = machine.nextBatch()
        _ = machine.wrote(through: 1, failed: [7: (Self.day, 1)])
        let gaveUp = machine.drainGaveUp()
        let again = machine.flush(2)
        let retry = Self.write(machine.nextBatch())
        _ = machine.wrote(through: 1, failed: [:])
        let end = Self.stop(machine.nextBatch())
        let spentLater = machine.spent(7, day: Self.day)
        #expect(flushing == Machine.Action.none)
        #expect(gaveUp == .resume([1]))
        #expect(again == .startDrain)
        #expect(retry?.counts == [7: 1])
        #expect(end == [2])
        #expect(spentLater.action == .startDrain, "a spend after the drain ended starts a new one")
    }
}
