import Dispatch
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

    @Test("with an executor, every job runs on it; without one, on the global pool")
    func jobsRunOnTheExecutor() async {
        let executor = QueueExecutor()
        let jobs = JobTasks(executor: executor)
        let onExecutor = NIOLockedValueBox<[Bool]>([])
        for _ in 1...4 {
            jobs.start({ onExecutor.withLockedValue { $0.append(executor.isCurrent) } }, cancelledBy: nil)
        }
        jobs.close()
        await jobs.allEnded()
        #expect(onExecutor.withLockedValue { $0 } == [true, true, true, true])
        #expect(executor.runs.withLockedValue { $0 } >= 4)

        let plain = JobTasks()
        let offExecutor = NIOLockedValueBox<Bool?>(nil)
        plain.start({ offExecutor.withLockedValue { $0 = executor.isCurrent } }, cancelledBy: nil)
        plain.close()
        await plain.allEnded()
        #expect(offExecutor.withLockedValue { $0 } == false)
    }
}

/// A task executor on a serial queue of its own, which knows whether the caller runs on it.
private final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "job-tasks-test")
    private let key = DispatchSpecificKey<Bool>()
    let runs = NIOLockedValueBox(0)

    init() {
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        runs.withLockedValue { $0 += 1 }
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
