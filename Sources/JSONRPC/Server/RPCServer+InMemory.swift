import Dispatch

extension RPCServer {
    /// Serves `input` as if it were the whole of stdin: the same framing, parsing, classification, validation,
    /// dispatch and answers as ``run()``, without the reader and writer threads or any descriptor. Returns the
    /// bytes a host would have read.
    ///
    /// Why: checks that push millions of inputs through the line handler (the fuzz target of `Fuzz/Lines`) would
    /// otherwise spend their time starting threads and pipes instead of on the lines.
    ///
    /// The calling thread plays the responder thread: it parses and handles every line (deep JSON is converted
    /// recursively, so give it a large stack), then waits while the work runs in tasks. Every line is handled before
    /// any work runs, as if the host wrote the input at once and the work were slow; since there is no reader to
    /// hold back, the in-flight limit is raised to the input's size for this serving (every line that takes a place
    /// is at least two bytes long), so taking a place never waits.
    ///
    /// - Important: Blocks the calling thread; never call it from a task.
    package static func answers(
        to input: [UInt8], registry: MethodRegistry, configuration: ServerConfiguration
    ) -> [UInt8] {
        var configuration = configuration
        configuration.maxInFlight = max(configuration.maxInFlight, input.count)
        let writer = OutputWriter.inMemory()
        let server = RPCServer(
            registry: registry, configuration: configuration, input: nil, writer: writer, logger: silent)
        let jobs = JobTasks(holding: true, executor: configuration.jobExecutor)
        var parser = LineParser(maxLineBytes: configuration.maxLineBytes, jobs: configuration.jobs != nil)
        let output = ImmediateOutput(writer: writer)
        input.withUnsafeBytes { server.respond(to: parser.lines(in: $0), jobs, output) }
        server.respond(to: parser.finish(), jobs, output)
        jobs.close()
        let done = DispatchSemaphore(value: 0)
        Task {
            await server.perform(jobs)
            await writer.finish()
            done.signal()
        }
        done.wait()
        return writer.lines
    }
}
