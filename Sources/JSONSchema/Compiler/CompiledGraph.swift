import JSONCore

/// The compiled form of a schema and everything it references; immutable, so any task may validate with it.
final class CompiledGraph: Sendable {
    let nodes: [CompiledNode]
    let root: Int
    /// Node of each dynamic anchor, by resource index.
    let dynamicAnchors: [[String: Int]]
    /// Whether annotations must be collected (the schema uses `unevaluated*`).
    let tracksAnnotations: Bool
    let assertFormats: Bool
    /// Whether a `$dynamicRef` may resolve through the dynamic scope, which then must be tracked.
    let usesDynamicScope: Bool

    init(
        nodes: [CompiledNode], root: Int, dynamicAnchors: [[String: Int]], tracksAnnotations: Bool, assertFormats: Bool,
        usesDynamicScope: Bool
    ) {
        self.usesDynamicScope = usesDynamicScope
        self.nodes = nodes
        self.root = root
        self.dynamicAnchors = dynamicAnchors
        self.tracksAnnotations = tracksAnnotations
        self.assertFormats = assertFormats
    }
}

/// One compiled (sub)schema: its keywords in evaluation order, and the resource it belongs to.
struct CompiledNode: Sendable {
    enum Body: Sendable {
        case always
        case never
        case keywords([Keyword])
    }

    var body: Body
    /// Index of the schema resource (the nearest `$id`) this node belongs to, for the dynamic scope.
    var resource: Int
}
