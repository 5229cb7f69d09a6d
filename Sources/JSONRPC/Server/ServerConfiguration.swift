/// The server's limits and modes (protocol.md §1 and §5).
package struct ServerConfiguration: Sendable {
    /// Requests worked on at once before reading stops (`--max-in-flight`).
    package var maxInFlight: Int
    /// Answer in request order instead of as completed (`--ordered`).
    package var ordered: Bool
    /// The longest line accepted, without its terminator (`--max-line-bytes`).
    package var maxLineBytes: Int
    /// The most messages one batch may hold (`--max-batch`).
    package var maxBatch: Int
    /// How long SIGTERM/SIGINT waits for in-flight requests before cancelling them (`--drain-seconds`).
    package var drainSeconds: Double
    /// Cancellation, null ids and batches: plain JSON-RPC unless a protocol on top says otherwise (MCP).
    package var rules: ProtocolRules = .jsonRPC
    /// Set for the filter face: every line is a job with one outcome line, in input order (``JobLines``).
    package var jobs: JobLines?
    /// The executor every job's task prefers, or nil for Swift's global pool. The worker gives its HTTP client's
    /// event loop (`EventLoopExecutor`), so that a job runs where its upstream exchange does.
    package var jobExecutor: (any TaskExecutor)?
    /// Reads stdin on the jobs' thread when it can (the worker's event loop), else nil for a reader thread.
    package var inputPump: (any InputPump)?

    package init(
        maxInFlight: Int = 64, ordered: Bool = false, maxLineBytes: Int = 1 << 20, maxBatch: Int = 100,
        drainSeconds: Double = 5
    ) {
        self.maxInFlight = maxInFlight
        self.ordered = ordered
        self.maxLineBytes = maxLineBytes
        self.maxBatch = maxBatch
        self.drainSeconds = drainSeconds
    }
}
