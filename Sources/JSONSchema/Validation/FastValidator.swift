import JSONCore

/// The boolean fast path: the compiled graph lowered into a tree of small check objects.
///
/// Every request's params go through `isValid` first, so this is the hot path. Walking the general ``Evaluation``
/// copies a multi-payload `Keyword` enum per keyword per node, and that dominated a profile; here each keyword is
/// a final class whose `accepts` reads its own immutable fields. Properties and `additionalProperties` are fused
/// into one pass over the members. Used only for graphs without `unevaluated*` and without a dynamic scope (no
/// annotations to collect); those, and error collection, take the general evaluator.
final class FastValidator: Sendable {
    /// Owns every node; checks refer to nodes through unretained ``NodeRef``s (references may form cycles).
    private let nodes: [FastNode]
    private let root: Int

    init(graph: CompiledGraph) {
        nodes = graph.nodes.map { _ in FastNode() }
        root = graph.root
        for (index, node) in graph.nodes.enumerated() {
            nodes[index].configure(node.body, nodes: nodes, assertFormats: graph.assertFormats)
        }
    }

    func isValid(_ instance: JSONValue) -> Bool {
        nodes[root].accepts(instance, depth: 0)
    }
}
