/// A value served through the cache, with the store of what is derived from its body.
///
/// The domain's models stay plain values; a caller that keeps something of its own beside the cached body (the
/// worker keeps the serialized text of an answer) finds the store here. `kept` is nil when the body is not in the
/// memory tier (an error answer, a body that is not kept).
package struct Kept<Value: Sendable>: Sendable {
    package var value: Value
    package var kept: DerivedValues?

    package init(_ value: Value, kept: DerivedValues?) {
        self.value = value
        self.kept = kept
    }
}
