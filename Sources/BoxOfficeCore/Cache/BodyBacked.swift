/// A value made from a body the cache keeps in memory, with that body's serial number.
///
/// The domain's models stay plain values, and the domain keeps nothing of a caller's: a caller that keeps
/// something of its own made from the same body (the worker keeps the text of an answer) keys it by ``body``,
/// which no other body ever has (a refetched or reloaded body gets a new one). `body` is nil when the body is not in
/// the memory tier (an error answer, a body that is not kept).
package struct BodyBacked<Value: Sendable>: Sendable {
    package var value: Value
    package var body: UInt64?

    package init(_ value: Value, body: UInt64?) {
        self.value = value
        self.body = body
    }
}
