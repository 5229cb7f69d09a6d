import JSONCore

/// What one input line is.
package enum IncomingMessage: Sendable, Hashable {
    case single(Envelope)
    case batch([Envelope])
    /// A line that is answered by a single error object and nothing else (parse error, `[]`, batch too large).
    case rejected(RPCError)
}
