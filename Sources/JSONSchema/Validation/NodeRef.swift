import JSONCore

/// A node reference inside a check: unretained (the validator's node table owns every node, and references may
/// form cycles).
struct NodeRef: @unchecked Sendable {
    // @unchecked: an unretained pointer to an immutable-after-configure node owned by the validator.
    private let node: Unmanaged<FastNode>

    init(_ node: FastNode) {
        self.node = Unmanaged.passUnretained(node)
    }

    @inline(__always)
    func accepts(_ value: JSONValue, depth: Int) -> Bool {
        node._withUnsafeGuaranteedRef { $0.accepts(value, depth: depth) }
    }
}
