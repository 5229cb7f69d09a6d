/// The worker's name, version and commit, as `--version`, `worker.status` and `rpc.discover` report them. The
/// version is written once, in the package's `VERSION` file; the build stamps it (and the commit) into
/// `BuildStamp` (Plugins/EmbedResources).
package enum WorkerIdentity {
    package static let name = "boxoffice-worker"
    package static let version = BuildStamp.version
    package static let commit = BuildStamp.commit
    /// `--version`'s line: `boxoffice-worker 0.2.0 (1a2b3c4d5e6f)`.
    package static let versionLine = "\(name) \(version) (\(commit))"
}
