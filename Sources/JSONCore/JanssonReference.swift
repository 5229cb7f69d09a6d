import CJansson

/// Owns one reference to a Jansson value and drops it in `deinit`.
///
/// - Important: Not Sendable. Jansson's reference counts are atomic but its values are mutable and unsynchronised,
///   so a handle stays in the task that made it. Values cross tasks as ``JSONValue`` or as bytes.
final class JanssonReference {
    /// The owned (taken) reference; never `NULL`.
    let pointer: UnsafeMutablePointer<json_t>

    /// Takes ownership of a new reference (`json_*_new`, `json_loadb` results).
    init(taking pointer: UnsafeMutablePointer<json_t>) {
        self.pointer = pointer
    }

    deinit {
        cj_decref(pointer)
    }
}

@available(*, unavailable, message: "a Jansson value belongs to the task that made it")
extension JanssonReference: Sendable {}
