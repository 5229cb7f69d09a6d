import Foundation
import JSONCore
import Synchronization

/// A JSON-RPC 2.0 server over newline-delimited JSON (protocol.md §1–§2).
///
/// Two threads and a task group:
/// - the reader thread reads, frames and parses lines (Jansson) and hands them on, one batch per input chunk;
/// - the responder thread takes them in reading order, classifies them, answers what needs no work (errors and
///   ``ImmediateRPCMethod``s) on the spot and hands the rest to the task group;
/// - at most `maxInFlight` lines are worked on or waiting to be written at once; the responder waits for a free
///   slot, the bounded ``LineQueue`` fills, and reading stops (backpressure).
/// One ``OutputWriter`` writes every line.
///
/// - Important: Every request is answered exactly once and every notification never; ``run()`` returns only when
///   every answer has been handed to the writer and flushed.
public final class RPCServer: Sendable {
    public let configuration: ServerConfiguration
    public let registry: MethodRegistry
    public let statistics: ServerStatistics
    let writer: OutputWriter
    let log: ServerLog
    let reader: InputReader
    let queue = LineQueue()
    let inFlight = InFlightRequests()
    let slots: DispatchSemaphore
    let sequencer: ResponseSequencer
    let activeJobs = Atomic<Int>(0)
    private let shutdownAt = Mutex<ContinuousClock.Instant?>(nil)
    /// Mirrors `shutdownAt != nil` for the per-line check, without a lock.
    private let shuttingDown = Atomic<Bool>(false)

    /// How the input ended.
    public enum Ending: Sendable, Equatable {
        case endOfInput
        case shutdown
        case readFailed(errno: Int32)
    }

    public init(
        registry: MethodRegistry, configuration: ServerConfiguration, input: Int32, writer: OutputWriter,
        statistics: ServerStatistics = ServerStatistics(), log: ServerLog = .discard
    ) {
        self.registry = registry
        self.configuration = configuration
        self.statistics = statistics
        self.writer = writer
        self.log = log
        reader = InputReader(fd: input)
        let slots = DispatchSemaphore(value: max(1, configuration.maxInFlight))
        self.slots = slots
        sequencer = ResponseSequencer(writer: writer, ordered: configuration.ordered) { slots.signal() }
    }

    /// Serves until end of input (then finishes all work) or ``shutdown()`` (then drains); flushes and returns.
    public func run() async -> Ending {
        let (jobs, continuation) = AsyncStream<Job>.makeStream()
        let ending = Mutex<Ending>(.endOfInput)
        let readerThread = Thread { [self] in
            let result = readLines()
            ending.withLock { $0 = result }
        }
        readerThread.name = "protocol-reader"
        // Deep JSON (up to Jansson's nesting limit) is converted recursively on this thread.
        readerThread.stackSize = 16 << 20
        let responderThread = Thread { [self] in
            respond(into: continuation)
        }
        responderThread.name = "protocol-responder"
        responderThread.stackSize = 16 << 20
        readerThread.start()
        responderThread.start()

        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await self.perform(job) }
            }
            await drain()
        }
        writer.flush()
        return ending.withLock { $0 }
    }

    /// Stops reading; in-flight requests get `drainSeconds` to finish, then are answered with `-32800`.
    /// Safe to call from any thread, more than once.
    public func shutdown() {
        let first = shutdownAt.withLock { instant -> Bool in
            guard instant == nil else { return false }
            instant = .now
            return true
        }
        guard first else { return }
        shuttingDown.store(true, ordering: .releasing)
        log(.notice, "shutting down: reading stopped, draining in-flight requests", ["drainSeconds": "\(configuration.drainSeconds)"])
        reader.stop()
        queue.close()
    }

    var isShuttingDown: Bool { shuttingDown.load(ordering: .acquiring) }

    /// Waits for the work in flight after input ended; past the drain deadline of a shutdown, cancels it.
    private func drain() async {
        var cancelled = false
        while activeJobs.load(ordering: .acquiring) > 0 {
            if !cancelled, let start = shutdownAt.withLock({ $0 }),
               ContinuousClock.now - start >= .seconds(configuration.drainSeconds)
            {
                log(.warning, "drain time is up: cancelling \(inFlight.count) request(s)")
                inFlight.cancelAll()
                cancelled = true
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The reader thread's whole life: read, frame and parse until the input ends, handing each chunk's lines on.
    private func readLines() -> Ending {
        var framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        var batch: [ParsedLine] = []
        let collect: (LineFramer.Event) -> Void = { event in
            switch event {
            case .tooLong:
                batch.append(.tooLong)
            case .line(let bytes):
                guard !LineFramer.isBlank(bytes) else { return }
                do throws(JSONParseError) {
                    batch.append(.message(try JSONParser.parse(bytes)))
                } catch {
                    batch.append(.parseError(error))
                }
            }
        }
        let outcome = reader.readLoop { chunk in
            framer.feed(chunk, collect)
            queue.push(batch)
            batch = []
        }
        defer { queue.finish() }
        switch outcome {
        case .endOfInput:
            framer.finish(collect)
            queue.push(batch)
            log(.debug, "end of input")
            return isShuttingDown ? .shutdown : .endOfInput
        case .stopped:
            return .shutdown
        case .failed(let code):
            log(.error, "reading stdin failed: \(String(cString: strerror(code)))")
            return .readFailed(errno: code)
        }
    }

    /// The responder thread's whole life: answer or dispatch every line in reading order; end the job stream.
    private func respond(into jobs: AsyncStream<Job>.Continuation) {
        let output = ImmediateOutput(writer: writer)
        while let batch = queue.pop() {
            for line in batch {
                guard !isShuttingDown else { break }
                handle(line, jobs, output)
            }
            output.flush()
        }
        output.flush()
        jobs.finish()
    }

    /// Waits for an in-flight slot; false when shutdown began while waiting. Answers already made are written
    /// before waiting, so none is held back while reading is blocked.
    func takeSlot(_ output: ImmediateOutput) -> Bool {
        if slots.wait(timeout: .now()) == .success { return true }
        output.flush()
        while slots.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if isShuttingDown { return false }
        }
        return true
    }

    /// Writes an answer that needed no work: with the chunk's other answers, or in its place in `--ordered` mode.
    func answerNow(_ answer: Answer, _ output: ImmediateOutput) {
        guard sequencer.isOrdered else { return output.append(answer) }
        guard takeSlot(output) else { return }
        sequencer.deliver(sequencer.takeTicket(), line: answer.line)
    }

    func submit(_ job: Job, _ jobs: AsyncStream<Job>.Continuation) {
        activeJobs.add(1, ordering: .releasing)
        statistics.inFlight.add(1, ordering: .relaxed)
        jobs.yield(job)
    }
}
