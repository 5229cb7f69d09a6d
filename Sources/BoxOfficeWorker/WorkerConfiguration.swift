import JSONRPC

/// Everything the worker is started with, already resolved from flags and environment (flags win).
public struct WorkerConfiguration: Sendable {
    /// Where the answers come from.
    public enum Mode: String, Sendable {
        case live
        /// The embedded recorded fixtures: no key, or `--offline`.
        case offline
    }

    public var server: ServerConfiguration
    public var mode: Mode
    /// Registers the `diagnostics.*` methods (`--diagnostics`).
    public var diagnostics: Bool

    public init(server: ServerConfiguration = ServerConfiguration(), mode: Mode = .offline, diagnostics: Bool = false) {
        self.server = server
        self.mode = mode
        self.diagnostics = diagnostics
    }
}

/// The worker's name and version, as `worker.status` and `rpc.discover` report them.
public enum WorkerIdentity {
    public static let name = "boxoffice-worker"
    public static let version = "0.1.0"
}
