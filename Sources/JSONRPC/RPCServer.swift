import Foundation
import JSONCore
import Synchronization

/// A JSON-RPC 2.0 server over newline-delimited JSON (protocol.md §1–§2).
///
/// One reader thread reads, frames, parses and classifies lines in order, answers what needs no work (errors and
/// ``ImmediateRPCMethod``s) on the spot, and hands the rest to a task group; at most `maxInFlight` lines are worked
/// on or waiting to be written at once, and reading waits for a free slot (backpressure). One ``OutputWriter``
/// writes every line.
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
    let inFlight = InFlightRequests()
    let slots: DispatchSemaphore
    let sequencer: ResponseSequencer
    let activeJobs = Atomic<Int>(0)
    private let shutdownAt = Mutex<ContinuousClock.Instant?>(nil)
    /// Mirrors `shutdownAt != nil` for the reader's per-line check, without a lock.
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
        let thread = Thread { [self] in
            let result = readInput(into: continuation)
            ending.withLock { $0 = result }
        }
        thread.name = "protocol-reader"
        // Deep JSON (up to Jansson's nesting limit) is converted recursively on this thread.
        thread.stackSize = 16 << 20
        thread.start()

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

    /// The reader thread's whole life: read, frame, handle each line; finish the job stream at the end.
    private func readInput(into jobs: AsyncStream<Job>.Continuation) -> Ending {
        var framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        let output = ImmediateOutput(writer: writer)
        let handle: (LineFramer.Event) -> Void = { event in
            guard !self.isShuttingDown else { return }
            switch event {
            case .tooLong:
                self.statistics.bump(.invalidRequests)
                self.answerNow(Response.error(id: .null, .requestTooLarge(limit: self.configuration.maxLineBytes)), output)
            case .line(let bytes):
                self.handleLine(bytes, jobs, output)
            }
        }
        let outcome = reader.readLoop { chunk in
            framer.feed(chunk, handle)
            output.flush()
        }
        defer {
            output.flush()
            jobs.finish()
        }
        switch outcome {
        case .endOfInput:
            framer.finish(handle)
            log(.debug, "end of input")
            return isShuttingDown ? .shutdown : .endOfInput
        case .stopped:
            return .shutdown
        case .failed(let code):
            log(.error, "reading stdin failed: \(String(cString: strerror(code)))")
            return .readFailed(errno: code)
        }
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
    func answerNow(_ response: JSONValue, _ output: ImmediateOutput) {
        guard sequencer.isOrdered else { return output.append(response) }
        guard takeSlot(output) else { return }
        sequencer.deliver(sequencer.takeTicket(), line: JSONSerializer.line(response))
    }

    func submit(_ job: Job, _ jobs: AsyncStream<Job>.Continuation) {
        activeJobs.add(1, ordering: .releasing)
        statistics.inFlight.add(1, ordering: .relaxed)
        jobs.yield(job)
    }
}
