/// The rules a protocol on top of JSON-RPC 2.0 sets where plain JSON-RPC leaves a choice: how a request is
/// cancelled and whether it is then answered, whether `"id": null` names a request, and when batches are accepted.
///
/// The worker speaks ``jsonRPC`` (protocol.md); the MCP face sets MCP's: `notifications/cancelled` with
/// `requestId`, nothing further sent for a cancelled request, ids never null, batches only in a 2025-03-26 session.
package struct ProtocolRules: Sendable {
    /// The notification that cancels a request in flight.
    package var cancelMethod: String
    /// The member of its params that names the request.
    package var cancelIDMember: String
    /// Whether a request cancelled by its client is answered (`-32800`) or gets nothing further. A request cancelled
    /// by shutdown is always answered.
    package var answersCancelled: Bool
    /// Whether `"id": null` is a request (JSON-RPC allows it; MCP does not: `-32600`).
    package var allowsNullID: Bool
    /// Whether a batch line is accepted now; otherwise it is answered with one `-32600`.
    package var acceptsBatches: @Sendable () -> Bool

    package init(
        cancelMethod: String, cancelIDMember: String, answersCancelled: Bool, allowsNullID: Bool,
        acceptsBatches: @escaping @Sendable () -> Bool
    ) {
        self.cancelMethod = cancelMethod
        self.cancelIDMember = cancelIDMember
        self.answersCancelled = answersCancelled
        self.allowsNullID = allowsNullID
        self.acceptsBatches = acceptsBatches
    }

    /// Plain JSON-RPC 2.0 as protocol.md has it: `$/cancelRequest {id}` answered with `-32800`, null ids and
    /// batches allowed.
    package static let jsonRPC = ProtocolRules(
        cancelMethod: "$/cancelRequest", cancelIDMember: "id", answersCancelled: true, allowsNullID: true,
        acceptsBatches: { true })
}
