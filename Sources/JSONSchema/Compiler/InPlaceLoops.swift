extension CompiledGraph {
    /// Whether a subschema reachable from the root can come back to itself without descending into the value —
    /// through `$ref`, `$dynamicRef`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else` or `dependentSchemas`
    /// (`{"$defs": {"a": {"oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}]}}}`). For a value nothing else
    /// stops, such a schema applies itself to it forever. The fast path keeps no trail to notice, and with more than
    /// one way back it ran for an exponential number of steps before its depth limit (found by the schema fuzz
    /// target), so such graphs take the general evaluator, which stops at the first repetition.
    func loopsInPlace() -> Bool {
        var reachable = Set<Int>()
        var pending = [root]
        while let index = pending.popLast() {
            guard reachable.insert(index).inserted else { continue }
            let (inPlace, children) = edges(of: index)
            pending += inPlace + children
        }
        // Depth-first over the in-place edges only: an edge back to a node on the current path closes a loop.
        enum Mark { case onPath, done }
        var marks: [Int: Mark] = [:]
        for start in reachable where marks[start] == nil {
            var path: [(node: Int, next: [Int])] = [(start, edges(of: start).inPlace)]
            marks[start] = .onPath
            while !path.isEmpty {
                guard let next = path[path.count - 1].next.popLast() else {
                    marks[path.removeLast().node] = .done
                    continue
                }
                switch marks[next] {
                case .onPath?: return true
                case .done?: continue
                case nil:
                    marks[next] = .onPath
                    path.append((next, edges(of: next).inPlace))
                }
            }
        }
        return false
    }

    /// The subschemas node `index` applies to its own value, and those it applies to values inside it.
    private func edges(of index: Int) -> (inPlace: [Int], children: [Int]) {
        guard case .keywords(let keywords) = nodes[index].body else { return ([], []) }
        var inPlace: [Int] = []
        var children: [Int] = []
        for keyword in keywords {
            switch keyword {
            case .ref(let target), .dynamicRef(let target, _), .not(let target): inPlace.append(target)
            case .allOf(let targets), .anyOf(let targets), .oneOf(let targets): inPlace += targets
            case .conditional(let condition, let then, let otherwise):
                inPlace += [condition] + [then, otherwise].compactMap { $0 }
            case .dependentSchemas(let entries): inPlace += entries.map(\.1)
            case .properties(let table): children += table.entries.map(\.1)
            case .patternProperties(let patterns): children += patterns.map(\.1)
            case .prefixItems(let targets): children += targets
            case .additionalProperties(let target, _, _), .propertyNames(let target), .items(let target, _),
                .contains(let target, _, _), .unevaluatedItems(let target), .unevaluatedProperties(let target):
                children.append(target)
            case .type, .enumeration, .constant, .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum,
                .maxLength, .minLength, .pattern, .format, .maxItems, .minItems, .uniqueItems, .maxProperties,
                .minProperties, .required, .dependentRequired:
                break
            }
        }
        return (inPlace, children)
    }
}
