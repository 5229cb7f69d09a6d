/// The worker's name and version, as `--version`, `worker.status` and `rpc.discover` report them.
package enum WorkerIdentity {
    package static let name = "boxoffice-worker"
    package static let version = "0.2.0"
}
