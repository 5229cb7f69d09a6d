import BoxOfficeCore
package import Foundation
package import Testing

/// Runs each test of a suite off Swift's cooperative pool, for tests that block their thread.
///
/// The end-to-end tests wait for a worker process by blocking (a condition variable, `usleep`, `waitUntilExit`), and
/// Swift Testing runs every test on the cooperative pool, which has one thread per core. On a two-core machine two
/// such tests stopped every other test's tasks for seconds: once, in CI, 11 s, and the PostgreSQL store's 3-second
/// deadlines expired in tests that had nothing to do with the blocking ones. Under this trait a test's own code,
/// and every child task it starts, runs on threads made for it (``ThreadPerJobExecutor``), so blocking there holds
/// up nothing else. Unstructured tasks (`Task {}`) still go to the pool, as they should.
///
/// As many of these tests run at once as the machine has cores, as many as the pool let run before: each starts a
/// worker process and a fake upstream, and all at once (tried) they overran the tests' short upstream timeouts.
package struct BlockingTestsTrait: SuiteTrait, TestTrait, TestScoping {
    private static let running = AsyncLimiter(width: ProcessInfo.processInfo.activeProcessorCount)

    /// Each test of the suite, and each case of a parameterized test, gets the scope (not the suite once).
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.running.acquire()
        defer { Self.running.release() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
            // The preference applies from the task's next enqueue; without one, a synchronous test that follows
            // at once would still run where it was called, on the pool. Yielding enqueues it now.
            await Task.yield()
            try await function()
        }
    }
}

extension Trait where Self == BlockingTestsTrait {
    /// The suite's tests block their threads (they wait for processes); see ``BlockingTestsTrait``.
    package static var blocking: Self { BlockingTestsTrait() }
}

/// A task executor that runs each job on a new thread of its own.
///
/// A thread per job, not a pool: a blocking test may wait on work of its own child tasks, which a fixed number of
/// threads could then never run. Tests make at most a few thousand jobs, and a thread costs tens of microseconds.
/// swift-nio's `NIOThreadPool` and event loops are not task executors in the version we build against.
package final class ThreadPerJobExecutor: TaskExecutor {
    package static let shared = ThreadPerJobExecutor()
    /// The name of every thread it makes, as the system shows it (`top -H`, a debugger) and a test checks it.
    package static let threadName = "blocking-test"

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // Named from inside, once `start()` has returned: a Linux thread starts with its creator's name, and
        // Foundation's `Thread.name` setter names it through a handle that `start()` stores only after the thread
        // exists, so a thread that got there first silently kept its creator's name (seen under ThreadSanitizer,
        // which slows the creator: one run in five of this trait's own tests).
        let started = DispatchSemaphore(value: 0)
        Thread {
            started.wait()
            Thread.current.name = Self.threadName
            job.runSynchronously(on: executor)
        }.start()
        started.signal()
    }

    /// The name of the calling thread.
    package static func currentThreadName() -> String? {
        Thread.current.name
    }
}
