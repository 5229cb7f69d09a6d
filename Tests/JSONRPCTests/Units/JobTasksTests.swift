import NIOConcurrencyHelpers
import Testing

@testable import JSONRPC

/// A job's task as the server starts it: cancelled by its request's signal whenever that fires, counted until it
/// ends, and held until ``JobTasks/close()`` when serving in memory.
@Suite("Job tasks and the signal that cancels them")
struct JobTasksTests {
    @Test("a handler given to a signal runs once: at the fire, or at once when it has fired; a second fire runs none")
    func whenFired() {
        let runs = NIOLockedValueBox(0)
        let later = CancellationSignal()
        later.whenFired { runs.withLockedValue { $0 += 1 } }
        #expect(runs.withLockedValue { $0 } == 0)
        later.fire(byShutdown: false)
        later.fire(byShutdown: true)
        #expect(runs.withLockedValue { $0 } == 1)
        #expect(!later.firedByShutdown)

        let already = CancellationSignal()
        already.fire(byShutdown: true)
        already.whenFired { runs.withLockedValue { $0 += 1 } }
        #expect(runs.withLockedValue { $0 } == 2)
    }

    @Test("a job's signal cancels its running task; allEnded returns once it has ended and the responder closed")
    func signalCancelsTheTask() async {
        let jobs = JobTasks()
        let signal = CancellationSignal()
        let outcome = NIOLockedValueBox<String?>(nil)
        jobs.start(
            {
                do {
                    try await Task.sleep(for: .seconds(60))  // sleep-ok: long work, ended by the signal's cancellation
                    outcome.withLockedValue { $0 = "slept" }
                } catch {
                    outcome.withLockedValue { $0 = "cancelled" }
                }
            }, cancelledBy: signal)
        signal.fire(byShutdown: false)
        jobs.close()
        await jobs.allEnded()
        #expect(outcome.withLockedValue { $0 } == "cancelled")
    }

    @Test("a job whose signal fired before it started begins cancelled")
    func firedBeforeStart() async {
        let jobs = JobTasks()
        let signal = CancellationSignal()
        signal.fire(byShutdown: true)
        let sawCancellation = NIOLockedValueBox(false)
        jobs.start({ sawCancellation.withLockedValue { $0 = Task.isCancelled } }, cancelledBy: signal)
        jobs.close()
        await jobs.allEnded()
        #expect(sawCancellation.withLockedValue { $0 })
    }

    @Test("holding: nothing runs before close(); then every job runs, and allEnded waits for all of them")
    func holding() async {
        let jobs = JobTasks(holding: true)
        let ran = NIOLockedValueBox<[Int]>([])
        for number in 1...5 {
            jobs.start({ ran.withLockedValue { $0.append(number) } }, cancelledBy: nil)
        }
        #expect(ran.withLockedValue { $0 }.isEmpty)
        jobs.close()
        await jobs.allEnded()
        #expect(ran.withLockedValue { $0 }.sorted() == [1, 2, 3, 4, 5])
    }

    @Test("allEnded returns at once when the responder closed with no job")
    func noJobs() async {
        let jobs = JobTasks()
        jobs.close()
        await jobs.allEnded()
    }
}
