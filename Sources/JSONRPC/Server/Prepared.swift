import JSONCore

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
