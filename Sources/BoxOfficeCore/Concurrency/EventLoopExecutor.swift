package import NIOCore
import NIOPosix

/// A task executor over the event loop the HTTP client's exchanges run on, so that a job's task runs where its
/// upstream exchange does: begun there, answered there, resumed there, with no thread woken in between.
///
/// Why: on Swift's global pool an uncached call crossed threads at every step — the job's task to the loop for the
/// request, the loop back to the pool for the answer, the pool to the loop again for the shared call's waiter —
/// each hand-off a futex wake-up and a context switch (issue 43: a fifth of the call's CPU was the kernel's
/// scheduling). A job started on this executor runs on the loop from its first step to its answer; a task it starts
/// that must outlive it (the shared upstream call, the quota's spend writer) is started here too (``current()``),
/// because an unstructured task does not inherit its creator's executor preference.
///
/// One loop, not the group's two: AsyncHTTPClient keeps alive only the connections of requests that *prefer* a
/// loop, and gives such a request an idle connection on any loop; with jobs spread over two loops, half the
/// exchanges ran on a connection of the other loop and crossed back and forth (8.8 context switches a call against
/// 7.x). Requests that *require* a loop get a connection closed as soon as it is idle: a connect per call. The
/// jobs' own work (reading a body, writing an answer) is tens of microseconds; the other core keeps the reader, the
/// responder, the writer and the stores' threads. Work that waits waits off the loop: SQLite under another process's
/// lock on the connection's queue, PostgreSQL's statements on its pool's threads, name lookups on a queue of their
/// own; a card is drawn on the global pool (Presenter). SQLite's reads and a commit's automatic checkpoint still run
/// where they are called, as they did on the global pool (see SQLiteStore).
///
/// NIO offers its loops as `SerialExecutor`s for actors, not as `TaskExecutor`s, hence this small adapter.
package final class EventLoopExecutor: TaskExecutor {
    /// The executor of the loop every exchange of the shared HTTP client runs on (the `.singleton` group's).
    package static let shared = EventLoopExecutor(loop: MultiThreadedEventLoopGroup.singleton.next())

    package let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// The shared executor when the caller runs on its loop, else nil (for a task that should stay where its
    /// creator runs).
    ///
    /// Asks the calling thread first: off every loop (offline, the CLI's commands) it never touches ``shared``,
    /// which would start the loops' threads for nothing (a first cut did: the CLI's daily screen took two more
    /// threads and 5–10 % longer).
    package static func current() -> EventLoopExecutor? {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop, loop === shared.loop else { return nil }
        return shared
    }
}
