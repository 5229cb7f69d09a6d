package import BoxOfficeCore
import NIOConcurrencyHelpers

/// The text of answers made from one cached body (a box office without `include`, a lookup's details or code list),
/// kept by that body.
///
/// Without `include`, an answer depends only on the upstream body, how many entries were asked for and where the
/// body came from, and a bot asking for yesterday's top 10 asks for the same one again and again: decoding,
/// building and dumping a ten-entry result through Jansson is most of the cost of an answer, so its text is made
/// once per body and written as is after that.
///
/// Keyed by the body's serial number (``BodyBacked/body``), which no other body ever has: a refetched or expired body comes
/// back with a new one, so a kept text never outlives the body it was made from. Texts of bodies gone from memory are
/// dropped when the memo is full (it is then emptied; the hot answers come back on their next request). The
/// domain keeps none of this: it is the worker's answer.
package final class AnswerMemo: Sendable {
    /// What an answer's text depends on, besides the method (one body answers one method: its call is the
    /// method's own).
    package struct Key: Hashable, Sendable {
        package let body: UInt64
        /// The entries a box office was cut to; 0 for a lookup, which is answered whole.
        package let limit: Int
        package let source: Source

        package init(body: UInt64, limit: Int, source: Source) {
            self.body = body
            self.limit = limit
            self.source = source
        }
    }

    /// The most texts kept: twice the memory tier's bodies (a body answered with two limits, or by both faces).
    package let capacity: Int
    private let texts = NIOLockedValueBox<[Key: [UInt8]]>([:])

    package init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The process's one, shared by the box office methods and the lookups: a text is keyed by its body's serial number, which no
    /// other body in the process has. A global, so that it is made on the first box office answer rather than at
    /// start: instantiating a dictionary keyed by a new Hashable type makes the runtime scan every conformance
    /// record of the binary once, about a million instructions of a cold start.
    package static let shared = AnswerMemo()

    /// The text kept under `key`, made by `make` on first use.
    package func text(_ key: Key, _ make: () -> [UInt8]) -> [UInt8] {
        if let known = texts.withLockedValue({ $0[key] }) { return known }
        let made = make()
        texts.withLockedValue { texts in
            if texts.count >= capacity { texts.removeAll(keepingCapacity: true) }
            texts[key] = made
        }
        return made
    }
}
