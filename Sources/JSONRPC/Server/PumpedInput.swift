import Glibc
import Logging
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

    init(server: RPCServer, jobs: JobTasks, ending: NIOLockedValueBox<RPCServer.Ending>) {
        self.server = server
        self.jobs = jobs
        self.ending = ending
        parser = LineParser(maxLineBytes: server.configuration.maxLineBytes, jobs: server.configuration.jobs != nil)
        output = ImmediateOutput(writer: server.writer, waitsForRoom: false)
    }

    func received(_ bytes: UnsafeRawBufferPointer, from valve: any InputValve) -> Bool {
        server.handOnWithoutWaiting(parser.lines(in: bytes), jobs, output) { valve.resume() }
    }

    func ended(_ outcome: InputReader.Outcome) {
        defer { server.queue.finish() }
        let result: RPCServer.Ending
        switch outcome {
        case .endOfInput:
            // Past the queue's bound if it is full: reading is over, so nothing more can come after it.
            _ = server.handOnWithoutWaiting(parser.finish(), jobs, output) {}
            server.logger.debug("end of input")
            result = .endOfInput
        case .stopped:
            result = .shutdown
        case .failed(let code):
            server.logger.error("reading stdin failed: \(String(cString: strerror(code)))")
            result = .readFailed(errno: code)
        }
        ending.withLockedValue { $0 = result }
    }
}
