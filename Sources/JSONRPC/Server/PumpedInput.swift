import NIOConcurrencyHelpers

/// The server's side of an ``InputPump``: frames and parses what the pump reads, as the reader thread does, and
/// hands the lines on without ever waiting (``RPCServer/handOnWithoutWaiting(_:_:_:resume:)``).
///
/// `@unchecked`: a pump calls its sink one call at a time, on its own thread; `parser` and `output` are that
/// thread's.
final class PumpedInput: InputSink, @unchecked Sendable {
    private let server: RPCServer
    private let jobs: JobTasks
    private let ending: NIOLockedValueBox<RPCServer.Ending>
    private var parser: LineParser
    private let output: ImmediateOutput
    /// Set at ``ended(_:)``: nothing read after it is handed on (the queue it would go to is finished).
    private var over = false

    init(server: RPCServer, jobs: JobTasks, ending: NIOLockedValueBox<RPCServer.Ending>) {
        self.server = server
        self.jobs = jobs
        self.ending = ending
        parser = LineParser(maxLineBytes: server.configuration.maxLineBytes, jobs: server.configuration.jobs != nil)
        output = ImmediateOutput(writer: server.writer, waitsForRoom: false)
    }

    func received(_ bytes: UnsafeRawBufferPointer, from valve: any InputValve) -> Bool {
        guard !over else { return true }
        return server.handOnWithoutWaiting(parser.lines(in: bytes), jobs, output) { valve.resume() }
    }

    func ended(_ outcome: InputReader.Outcome) {
        guard !over else { return }
        over = true
        let result = server.ending(after: outcome) {
            // Past the queue's bound if it is full: reading is over, so nothing more can come after it.
            _ = server.handOnWithoutWaiting(parser.finish(), jobs, output) {}
        }
        ending.withLockedValue { $0 = result }
        server.queue.finish()
    }
}
