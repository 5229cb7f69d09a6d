import NIOConcurrencyHelpers

/// What one process remembers of its legacy session: the version `initialize` agreed on (which decides whether
/// batches are accepted). Modern requests carry everything themselves and leave it alone.
package final class MCPSession: Sendable {
    private let version = NIOLockedValueBox<String?>(nil)

    package init() {}

    /// The version agreed by `initialize`, if one was.
    package var negotiated: String? { version.withLockedValue { $0 } }

    func agree(on negotiated: String) {
        version.withLockedValue { $0 = negotiated }
    }

    /// Batches exist only in 2025-03-26.
    package var acceptsBatches: Bool { negotiated == MCPVersion.batches }
}
