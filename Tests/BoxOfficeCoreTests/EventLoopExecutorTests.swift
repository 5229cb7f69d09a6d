import NIOCore
import NIOPosix
import Testing

@testable import BoxOfficeCore

/// Jobs run on the HTTP client's event loop (``EventLoopExecutor``), and the tasks they start for work that outlives
/// them (the shared upstream call, the spend writer) are started there too.
@Suite("The jobs' event loop executor")
struct EventLoopExecutorTests {
    @Test("a task that prefers the executor runs on its loop, and so does a task started from it with current()")
    func tasksStayOnTheLoop() async {
        #expect(EventLoopExecutor.current() == nil)
        let seen = await Task(executorPreference: EventLoopExecutor.shared) { () -> [Bool] in
            let here = EventLoopExecutor.shared.loop.inEventLoop && EventLoopExecutor.current() != nil
            let child = await Task(executorPreference: EventLoopExecutor.current()) {
                EventLoopExecutor.shared.loop.inEventLoop
            }.value
            // After an await the job is resumed on the loop again, not on the global pool.
            try? await Task.sleep(for: .milliseconds(1))  // sleep-ok: a suspension whose resumption is checked
            return [here, child, EventLoopExecutor.shared.loop.inEventLoop]
        }.value
        #expect(seen == [true, true, true])
        // The loop is the singleton group's, which the HTTP client runs on.
        #expect(MultiThreadedEventLoopGroup.singleton.makeIterator().contains { $0 === EventLoopExecutor.shared.loop })
    }

    @Test("a task started off the loop with current() runs on the global pool")
    func offTheLoop() async {
        let onLoop = await Task(executorPreference: EventLoopExecutor.current()) {
            EventLoopExecutor.shared.loop.inEventLoop
        }.value
        #expect(!onLoop)
    }
}
