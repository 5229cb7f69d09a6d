import JSONCore

/// Work handed from the responder thread to the task group.
enum Job: Sendable {
    /// A request whose answer goes in `ticket`'s place.
    case call(PreparedCall, Ticket)
    /// A notification to a method that does real work: nothing is answered.
    case notification(PreparedCall)
    /// A batch with work left; answered as one array line unless every element was a notification.
    case batch([Prepared], Ticket?)
}

/// What one request or batch element comes to on the responder thread.
enum Prepared: Sendable {
    /// Nothing to do or answer (a notification that was handled or ignored).
    case nothing
    /// The response is ready.
    case answered(Response)
    case call(PreparedCall)
    case notification(PreparedCall)
}

extension Prepared {
    /// The ready response, if this element has one.
    var response: Response? {
        if case .answered(let response) = self { response } else { nil }
    }
}

/// A request that passed every check and waits for its handler.
struct PreparedCall: Sendable {
    let context: RequestContext
    let work: @Sendable () async throws -> RPCResult
    let registration: InFlightRequests.Registration
}
