import FoundationEssentials
import Glibc
package import Logging
import NIOConcurrencyHelpers
import Synchronization

/// A JSON-RPC 2.0 server over newline-delimited JSON (protocol.md §1–§2).
///
/// Three threads (two when a pump reads) and a task per job:
/// - the reader thread reads, frames and parses lines (Jansson) and hands them on, one batch per input chunk; or,
///   when the configuration has an ``InputPump`` that can watch stdin (the worker's event loop, for a pipe), the
///   pump's thread does, and the same small-chunk rule holds there without any wait (``PumpedInput``): it answers a
///   chunk only when nothing would wait, and stops reading, instead of waiting, while the line queue is full;
/// - the responder thread takes them in reading order, classifies them, and calls each method's one synchronous
///   step (``RPCMethod/start(_:_:)``): a ready answer is written on the spot, work starts as a task of its own
///   (``JobTasks``, on ``ServerConfiguration/jobExecutor`` when one is given). A small chunk that finds the
///   responder idle is answered the same way by the reader itself (``LineQueue/claim()``): the hand-over is worth
///   its wake-up only when the two threads overlap, as they do on a stream of lines;
/// - the writer thread (``OutputWriter``) writes what could not be written at once: an answer goes out on the
///   thread that made it when the writer is idle and the pipe has room (never waiting for it), else it is queued;
/// - at most `maxInFlight` lines are worked on or waiting for their turn at once (``InFlightGate``); then the
///   responder waits, the bounded ``LineQueue`` fills, and reading stops (backpressure).
///
/// Every ending takes the same orderly path (``stop(_:)``): end of input finishes the work in flight; SIGTERM/SIGINT
/// stops reading and gives the work `drainSeconds`, then cancels it; a host that closed stdout stops reading and
/// cancels the work at once (nobody can read its answers). ``run()`` returns when every answer has been written.
///
/// - Important: Every request is answered exactly once and every notification never.
package final class RPCServer: Sendable {
    package let configuration: ServerConfiguration
    package let registry: MethodRegistry
    package let statistics: ServerStatistics
    let writer: OutputWriter
    let logger: Logger
    /// `nil` when serving in memory (``answers(to:registry:configuration:)``).
    let reader: InputReader?
    let queue = LineQueue()
    let inFlight = InFlightRequests()
    let sequencer: ResponseSequencer
    /// Fires when a stop begins; the drain deadline waits on it.
    private let stopping = CancellationSignal()
    private let stopReason = NIOLockedValueBox<Ending?>(nil)
    /// Mirrors `stopReason != nil` for the per-line check, without a lock.
    private let stopped = Atomic<Bool>(false)
    /// Job lines read so far (``JobLines``): the next one's number less one.
    let jobLinesRead = Atomic<Int>(0)
    /// The pump reading stdin, when one does (``ServerConfiguration/inputPump``).
    let pumpValve = NIOLockedValueBox<(any InputValve)?>(nil)

    /// The logger of a server nobody asked to log.
    static let silent = Logger(label: "jsonrpc", factory: { _ in SwiftLogNoOpLogHandler() })

    /// How serving ended.
    package enum Ending: Sendable, Equatable {
        /// End of input: every request read was answered.
        case endOfInput
        /// SIGTERM/SIGINT (or a caller's ``shutdown()``): reading stopped, the work in flight drained.
        case shutdown
        /// The host closed stdout: reading stopped, the work in flight cancelled.
        case hostGone
        /// Reading stdin failed with `errno`.
        case readFailed(errno: Int32)
    }

    package convenience init(
        registry: MethodRegistry, configuration: ServerConfiguration, input: Int32, output: Int32,
        logger: Logger = RPCServer.silent
    ) {
        self.init(
            registry: registry, configuration: configuration, input: input, writer: OutputWriter(fd: output),
            logger: logger)
    }

    init(
        registry: MethodRegistry, configuration: ServerConfiguration, input: Int32?, writer: OutputWriter,
        logger: Logger
    ) {
        self.registry = registry
        self.configuration = configuration
        let statistics = ServerStatistics(maxInFlight: configuration.maxInFlight)
        self.statistics = statistics
        self.writer = writer
        self.logger = logger
        reader = input.map { InputReader(fd: $0) }
        sequencer = ResponseSequencer(writer: writer, ordered: configuration.ordered) {
            statistics.inFlight.leave(count: $0)
        }
    }

    /// Serves until the input ends or ``stop(_:)``; returns when every answer has been written.
    package func run() async -> Ending {
        let jobs = JobTasks(executor: configuration.jobExecutor)
        let readEnding = NIOLockedValueBox<Ending>(.endOfInput)
        // Deep JSON (up to Jansson's nesting limit) is converted recursively on these threads.
        let readOnThread = { @Sendable [self] in
            DetachedThread.start(name: "protocol-reader", stackSize: 16 << 20) { [self] in
                let result = readLines(answeringInto: jobs)
                readEnding.withLockedValue { $0 = result }
            }
        }
        if let pump = configuration.inputPump, let fd = reader?.fd,
            let valve = pump.start(
                reading: fd, into: PumpedInput(server: self, jobs: jobs, ending: readEnding), otherwise: readOnThread)
        {
            // A stop that began before the valve was kept stops it here.
            pumpValve.withLockedValue { $0 = valve }
            if isStopping { valve.stop() }
        } else {
            readOnThread()
        }
        DetachedThread.start(name: "protocol-responder", stackSize: 16 << 20) { [self] in
            respond(into: jobs)
        }
        await perform(jobs)
        await writer.finish()
        return stopReason.withLockedValue { $0 } ?? readEnding.withLockedValue { $0 }
    }

    /// Waits until the responder has ended and every job it started has too, watching for a host that is gone and
    /// for the drain deadline meanwhile.
    func perform(_ jobs: JobTasks) async {
        await withTaskGroup(of: Void.self) { watchers in
            watchers.addTask { await self.cancelAfterDrainDeadline() }
            watchers.addTask {
                await self.writer.hostGone.wait()
                guard !Task.isCancelled else { return }
                self.stop(.hostGone)
            }
            await jobs.allEnded()
            watchers.cancelAll()
        }
    }

    /// SIGTERM/SIGINT: stops reading; the work in flight gets `drainSeconds`, then is answered with `-32800`.
    /// Safe from any thread, more than once (the first stop wins).
    package func shutdown() {
        stop(.shutdown)
    }

    /// Begins the one orderly stop: reading ends, nothing new starts, and the work in flight drains (`.shutdown`)
    /// or is cancelled at once (`.hostGone`).
    func stop(_ reason: Ending) {
        let first = stopReason.withLockedValue { current -> Bool in
            guard current == nil else { return false }
            current = reason
            return true
        }
        guard first else { return }
        stopped.store(true, ordering: .releasing)
        switch reason {
        case .hostGone:
            logger.notice("the host closed stdout: reading stopped, cancelling \(statistics.inFlight.count) request(s)")
            inFlight.cancelAll()
        default:
            logger.notice(
                "shutting down: reading stopped, draining in-flight requests",
                metadata: ["drainSeconds": "\(configuration.drainSeconds)"])
        }
        reader?.stop()
        pumpValve.withLockedValue { $0 }?.stop()
        queue.close()
        statistics.inFlight.close()
        stopping.fire(byShutdown: true)
    }

    var isStopping: Bool { stopped.load(ordering: .acquiring) }

    /// Waits for a stop to begin, then for the drain time, then cancels what is still in flight. Cancelled (and
    /// silent) when serving ends first.
    private func cancelAfterDrainDeadline() async {
        await stopping.wait()
        guard !Task.isCancelled else { return }
        do {
            try await Task.sleep(for: .seconds(configuration.drainSeconds))
        } catch {
            return
        }
        let left = statistics.inFlight.count
        if left > 0 { logger.warning("drain time is up: cancelling \(left) request(s)") }
        inFlight.cancelAll()
    }

    /// The reader thread's whole life: read, frame and parse until the input ends, handing each chunk's lines on
    /// (or answering a small chunk itself, into `jobs`, when the responder is idle).
    private func readLines(answeringInto jobs: JobTasks) -> Ending {
        guard let reader else { preconditionFailure("run() needs an input descriptor") }
        var parser = LineParser(maxLineBytes: configuration.maxLineBytes, jobs: configuration.jobs != nil)
        let output = ImmediateOutput(writer: writer)
        let outcome = reader.readLoop { chunk in
            handOn(parser.lines(in: chunk), jobs, output)
        }
        defer { queue.finish() }
        return ending(after: outcome) { handOn(parser.finish(), jobs, output) }
    }

    /// What the end of reading means for serving, said in the log; at the end of input, `lastLines` hands on what
    /// followed the last newline. The reader thread's and a pump's (``PumpedInput``).
    func ending(after outcome: InputReader.Outcome, lastLines: () -> Void) -> Ending {
        switch outcome {
        case .endOfInput:
            lastLines()
            logger.debug("end of input")
            return .endOfInput
        case .stopped:
            return .shutdown
        case .failed(let code):
            logger.error("reading stdin failed: \(String(cString: strerror(code)))")
            return .readFailed(errno: code)
        }
    }

    /// Lines a chunk may hold for the reader to answer it itself. A longer chunk is a stream arriving faster than
    /// it is answered, where parsing the next chunk while the responder answers this one is what keeps up.
    static let linesTheReaderAnswers = 16

    /// Hands a chunk's lines to the responder, or, when the chunk is small and the responder idle, answers them on
    /// the reader thread exactly as the responder would (the same steps, waits included).
    private func handOn(_ batch: [ParsedLine], _ jobs: JobTasks, _ output: ImmediateOutput) {
        guard !batch.isEmpty else { return }
        guard batch.count <= Self.linesTheReaderAnswers, queue.claim() else { return queue.push(batch) }
        respond(to: batch, jobs, output)
        queue.endClaim()
    }

    /// The pump's ``handOn(_:_:_:)``, on the thread that runs the jobs, which must never wait: it answers a small
    /// chunk itself only when the responder is idle, an in-flight place is free for every line and the writer has
    /// room (so neither ``takeSlot(_:)`` nor a flush waits), and queues the chunk for the responder otherwise. False
    /// when the queue is full now: the pump stops reading until `resume`.
    func handOnWithoutWaiting(
        _ batch: [ParsedLine], _ jobs: JobTasks, _ output: ImmediateOutput, resume: @escaping @Sendable () -> Void
    ) -> Bool {
        guard !batch.isEmpty else { return true }
        if batch.count <= Self.linesTheReaderAnswers, queue.claim() {
            // Claimed first: only the answering thread takes places, so the room seen now is there for the chunk.
            let answers = statistics.inFlight.hasRoom(for: batch.count) && writer.hasRoom
            if answers { respond(to: batch, jobs, output) }
            queue.endClaim()
            if answers { return true }
        }
        return queue.offer(batch, resume: resume)
    }

    /// The responder thread's whole life: answer or dispatch every line in reading order; then no job is started.
    private func respond(into jobs: JobTasks) {
        let output = ImmediateOutput(writer: writer)
        while let batch = queue.pop() {
            respond(to: batch, jobs, output)
        }
        output.flush(sequencer)
        jobs.close()
    }

    /// Answers or dispatches one chunk's lines in order, then writes the answers that needed no work.
    func respond(to batch: [ParsedLine], _ jobs: JobTasks, _ output: ImmediateOutput) {
        for line in batch {
            guard !isStopping else { break }
            handle(line, jobs, output)
        }
        output.flush(sequencer)
    }

    /// Takes an in-flight place, waiting for one; false when a stop began while waiting. Answers already made are
    /// written before waiting, so none is held back while reading is blocked.
    func takeSlot(_ output: ImmediateOutput) -> Bool {
        if statistics.inFlight.tryEnter() { return true }
        output.flush(sequencer)
        return statistics.inFlight.enter()
    }

    /// Writes an answer that needed no work: with the chunk's other answers, or in its place in `--ordered` mode.
    func answerNow(_ answer: OutputLine, _ output: ImmediateOutput) {
        guard sequencer.isOrdered else { return output.append(answer) }
        guard takeSlot(output) else { return }
        output.append(in: sequencer.takeTicket(), sequencer) { append(answer, to: &$0) }
    }

    /// Appends an output line: the line itself, or a job's outcome line in the filter face.
    func append(_ answer: OutputLine, to bytes: inout [UInt8]) {
        guard let jobs = configuration.jobs, case .single(let response) = answer else {
            return answer.append(to: &bytes)
        }
        jobs.appendOutcome(response, to: &bytes)
    }

    /// The bytes of an output line (``append(_:to:)``).
    func bytes(of answer: OutputLine) -> [UInt8] {
        var bytes: [UInt8] = []
        append(answer, to: &bytes)
        return bytes
    }
}
