import Synchronization

/// Warns on stderr once per outage of the cache or quota store; requests go on without it meanwhile.
///
/// An outage begins with the first failure after a success (or at start) and ends with the next successful write,
/// which is said too, so a log shows when the store came back. Reads do not end an outage: in WAL mode they go on
/// while another process holds the write lock. A store that never works warns once for the whole run.
package final class CacheWarnings: Sendable {
    private let sink: @Sendable (String) -> Void
    private let recovered: @Sendable (String) -> Void
    private let failing = Atomic<Bool>(false)

    /// `sink` takes the warning at the start of an outage; `recovered` the notice at its end (and the notices of
    /// what an outage cost).
    package init(
        _ sink: @escaping @Sendable (String) -> Void, recovered: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.sink = sink
        self.recovered = recovered
    }

    /// A store operation failed: warns when this begins an outage.
    package func failed(_ message: String) {
        if !failing.exchange(true, ordering: .relaxed) { sink(message) }
    }

    /// A write to the store worked: ends an outage, if one was going on.
    package func succeeded() {
        guard failing.load(ordering: .relaxed) else { return }
        if failing.exchange(false, ordering: .relaxed) { recovered("the cache store works again") }
    }

    /// Says `message` whatever the state: for what is lost for good (bodies dropped at exit). During an outage,
    /// which was warned about already, it is a notice: a host counting warnings sees one per outage.
    package func report(_ message: String) {
        if isFailing { recovered(message) } else { sink(message) }
    }

    /// Whether the store is in an outage now.
    package var isFailing: Bool { failing.load(ordering: .relaxed) }
}
