import JSONCore

/// A request that passed every check and waits for its handler.
struct PreparedCall: Sendable {
    let context: RequestContext
    let work: @Sendable () async throws -> RPCResult
    let registration: InFlightRequests.Registration
}
