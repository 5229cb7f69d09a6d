import TestSupport
import Testing

/// The trait every suite of blocking tests carries: without it, their waits would hold Swift's cooperative pool.
@Suite("The blocking-tests trait keeps blocking tests off the cooperative pool", .blocking)
struct BlockingTraitTests {
    @Test("a synchronous test runs on a thread of its own")
    func synchronousTest() {
        #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
    }

    @Test("an asynchronous test runs there, stays there after it suspends, and so do its child tasks")
    func asynchronousTest() async throws {
        #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
        try await Task.sleep(for: .milliseconds(1))
        #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
        async let child = ThreadPerJobExecutor.currentThreadName()
        #expect(await child == ThreadPerJobExecutor.threadName)
    }

    @Test("the pool's own threads have another name (so the checks above can fail)")
    func poolThreads() async {
        await Task.detached {
            #expect(ThreadPerJobExecutor.currentThreadName() != ThreadPerJobExecutor.threadName)
        }.value
    }
}
