/// The server's limits and modes (protocol.md §1 and §5).
public struct ServerConfiguration: Sendable, Hashable {
    /// Requests worked on at once before reading stops (`--max-in-flight`).
    public var maxInFlight: Int
    /// Answer in request order instead of as completed (`--ordered`).
    public var ordered: Bool
    /// The longest line accepted, without its terminator (`--max-line-bytes`).
    public var maxLineBytes: Int
    /// The most messages one batch may hold (`--max-batch`).
    public var maxBatch: Int
    /// How long SIGTERM/SIGINT waits for in-flight requests before cancelling them (`--drain-seconds`).
    public var drainSeconds: Double

    public init(maxInFlight: Int = 64, ordered: Bool = false, maxLineBytes: Int = 1 << 20, maxBatch: Int = 100, drainSeconds: Double = 5) {
        self.maxInFlight = maxInFlight
        self.ordered = ordered
        self.maxLineBytes = maxLineBytes
        self.maxBatch = maxBatch
        self.drainSeconds = drainSeconds
    }
}
