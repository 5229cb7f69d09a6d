import BoxOfficeCore

/// The output of a box office method: the box office, and with `include` each entry's parts.
struct BoxOfficeAnswer: Sendable {
    /// The box office, with the serial of the cached body it was made from (the key of its kept text).
    let office: Kept<BoxOffice>
    /// The parts asked for (empty: none).
    var include: Set<IncludedParts.Part> = []
    /// Each entry's parts, in entry order; empty without `include`.
    var parts: [IncludedParts.Entry] = []
    /// The chat format the params asked for: the result then carries its messages.
    var chat: ChatFormat?
    /// The card the params asked for, drawn.
    var card: CardImage?
}
