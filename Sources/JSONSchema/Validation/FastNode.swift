import JSONCore

/// One compiled (sub)schema of the fast path.
final class FastNode: @unchecked Sendable {
    // @unchecked: `verdict` and the checks are set once by `configure` before the validator is shared, then only
    // read.
    private var verdict: Bool?
    /// Owns the checks.
    private var owned: [FastCheck] = []
    /// The same checks without reference counting: walking them is the hot loop, and `owned` keeps them alive.
    private var checks: [Unmanaged<FastCheck>] = []

    func configure(_ body: CompiledNode.Body, nodes: [FastNode], assertFormats: Bool) {
        switch body {
        case .always: verdict = true
        case .never: verdict = false
        case .keywords(let keywords): owned = FastCheck.lower(keywords, nodes: nodes, assertFormats: assertFormats)
        }
        checks = owned.map { Unmanaged.passUnretained($0) }
    }

    func accepts(_ value: JSONValue, depth: Int) -> Bool {
        if let verdict { return verdict }
        guard depth < Evaluation.maximumDepth else { return false }
        for check in checks where !check._withUnsafeGuaranteedRef({ $0.accepts(value, depth: depth + 1) }) {
            return false
        }
        return true
    }
}
