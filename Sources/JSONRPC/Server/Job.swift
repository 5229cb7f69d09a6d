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
