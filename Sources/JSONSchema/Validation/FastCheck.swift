import JSONCore

/// One keyword (or a fused group of object keywords) of the fast path.
class FastCheck: @unchecked Sendable {
    // @unchecked: subclasses hold only `let`s, fixed at construction.
    func accepts(_ value: JSONValue, depth: Int) -> Bool { true }

    static func lower(_ keywords: [Keyword], nodes: [FastNode], assertFormats: Bool) -> [FastCheck] {
        var checks: [FastCheck] = []
        var members = MembersCheck()
        for keyword in keywords {
            switch keyword {
            case .ref(let target), .dynamicRef(let target, _): checks.append(RefCheck(nodes[target]))
            case .type(let mask): checks.insert(TypeCheck(mask), at: 0)
            case .enumeration(let values): checks.append(EnumCheck(values))
            case .constant(let value): checks.append(EnumCheck([value]))
            case .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
                checks.append(NumberCheck(keyword))
            case .maxLength, .minLength, .pattern: checks.append(StringCheck(keyword))
            case .format(_, let checker):
                if assertFormats, let checker { checks.append(FormatCheck(checker)) }
            case .properties(let table):
                members.properties = table.entries.map { (SchemaName($0.0), NodeRef(nodes[$0.1])) }
            case .patternProperties(let patterns): members.patterns = patterns.map { ($0.0, NodeRef(nodes[$0.1])) }
            case .additionalProperties(let schema, _, _): members.additional = NodeRef(nodes[schema])
            case .propertyNames(let schema): members.names = NodeRef(nodes[schema])
            case .required, .dependentRequired, .maxProperties, .minProperties, .dependentSchemas:
                checks.append(ObjectCheck(keyword, nodes: nodes))
            case .prefixItems, .items, .contains, .maxItems, .minItems, .uniqueItems:
                checks.append(ArrayCheck(keyword, nodes: nodes))
            case .allOf(let schemas): checks.append(AllOfCheck(schemas.map { nodes[$0] }))
            case .anyOf(let schemas): checks.append(AnyOfCheck(schemas.map { nodes[$0] }))
            case .oneOf(let schemas): checks.append(OneOfCheck(schemas.map { nodes[$0] }))
            case .not(let schema): checks.append(NotCheck(nodes[schema]))
            case .conditional(let condition, let then, let otherwise):
                checks.append(ConditionalCheck(nodes[condition], then.map { nodes[$0] }, otherwise.map { nodes[$0] }))
            case .unevaluatedItems, .unevaluatedProperties:
                break  // graphs with these never take the fast path
            }
        }
        if members.isUsed { checks.append(members.check) }
        return checks
    }
}

private final class RefCheck: FastCheck {
    let target: NodeRef
    init(_ target: FastNode) { self.target = NodeRef(target) }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool { target.accepts(value, depth: depth) }
}

private final class TypeCheck: FastCheck {
    let mask: TypeMask
    init(_ mask: TypeMask) { self.mask = mask }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool { mask.admits(value) }
}

private final class EnumCheck: FastCheck {
    let values: [JSONValue]
    let strings: [SchemaName]
    init(_ values: [JSONValue]) {
        self.values = values
        strings = values.compactMap { $0.stringValue.map(SchemaName.init) }
    }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        if case .string(let text) = value {
            for candidate in strings where candidate.matches(text) { return true }
            return false
        }
        for candidate in values where candidate.schemaEquals(value) { return true }
        return false
    }
}

private final class NumberCheck: FastCheck {
    let keyword: Keyword
    init(_ keyword: Keyword) { self.keyword = keyword }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        guard let number = value.numberValue else { return true }
        switch keyword {
        case .multipleOf(let divisor): return Evaluation.isMultiple(value, of: divisor)
        case .maximum(let bound): return number <= bound
        case .exclusiveMaximum(let bound): return number < bound
        case .minimum(let bound): return number >= bound
        case .exclusiveMinimum(let bound): return number > bound
        default: return true
        }
    }
}

private final class StringCheck: FastCheck {
    let keyword: Keyword
    init(_ keyword: Keyword) { self.keyword = keyword }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        guard case .string(let text) = value else { return true }
        switch keyword {
        case .maxLength(let limit): return text.unicodeScalars.count <= limit
        case .minLength(let limit): return text.unicodeScalars.count >= limit
        case .pattern(let regex): return regex.matches(text)
        default: return true
        }
    }
}

private final class FormatCheck: FastCheck {
    let checker: FormatChecker
    init(_ checker: FormatChecker) { self.checker = checker }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        guard case .string(let text) = value else { return true }
        return checker.accepts(text)
    }
}

/// `properties`, `patternProperties`, `additionalProperties` and `propertyNames` in one pass over the members.
private struct MembersCheck {
    var properties: [(SchemaName, NodeRef)] = []
    var patterns: [(ECMARegex, NodeRef)] = []
    var additional: NodeRef?
    var names: NodeRef?

    var isUsed: Bool { !properties.isEmpty || !patterns.isEmpty || additional != nil || names != nil }

    var check: FastCheck { FusedMembersCheck(self) }
}

private final class FusedMembersCheck: FastCheck {
    let properties: [(SchemaName, NodeRef)]
    let patterns: [(ECMARegex, NodeRef)]
    let additional: NodeRef?
    let names: NodeRef?

    init(_ members: MembersCheck) {
        properties = members.properties
        patterns = members.patterns
        additional = members.additional
        names = members.names
    }

    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        guard case .object(let object) = value else { return true }
        for member in object {
            if let names, !names.accepts(.string(member.key), depth: depth) { return false }
            var matched = false
            for (name, node) in properties where name.matches(member.key) {
                guard node.accepts(member.value, depth: depth) else { return false }
                matched = true
                break
            }
            for (regex, node) in patterns where regex.matches(member.key) {
                guard node.accepts(member.value, depth: depth) else { return false }
                matched = true
            }
            if !matched, let additional, !additional.accepts(member.value, depth: depth) { return false }
        }
        return true
    }
}

private final class ObjectCheck: FastCheck {
    let keyword: Keyword
    let dependentNodes: [(String, NodeRef)]

    init(_ keyword: Keyword, nodes: [FastNode]) {
        self.keyword = keyword
        if case .dependentSchemas(let dependencies) = keyword {
            dependentNodes = dependencies.map { ($0.0, NodeRef(nodes[$0.1])) }
        } else {
            dependentNodes = []
        }
    }

    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        guard case .object(let object) = value else { return true }
        switch keyword {
        case .required(let names): return names.allSatisfy { object[$0] != nil }
        case .dependentRequired(let dependencies):
            return dependencies.allSatisfy { trigger, names in
                object[trigger] == nil || names.allSatisfy { object[$0] != nil }
            }
        case .maxProperties(let limit): return object.count <= limit
        case .minProperties(let limit): return object.count >= limit
        case .dependentSchemas:
            return dependentNodes.allSatisfy { object[$0.0] == nil || $0.1.accepts(value, depth: depth) }
        default: return true
        }
    }
}

private final class ArrayCheck: FastCheck {
    let keyword: Keyword
    let schemas: [NodeRef]

    init(_ keyword: Keyword, nodes: [FastNode]) {
        self.keyword = keyword
        switch keyword {
        case .prefixItems(let indexes): schemas = indexes.map { NodeRef(nodes[$0]) }
        case .items(let index, _), .contains(let index, _, _): schemas = [NodeRef(nodes[index])]
        default: schemas = []
        }
    }

    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        guard case .array(let array) = value else { return true }
        switch keyword {
        case .maxItems(let limit): return array.count <= limit
        case .minItems(let limit): return array.count >= limit
        case .uniqueItems:
            for first in array.indices {
                for second in array.indices where second > first && array[first].schemaEquals(array[second]) {
                    return false
                }
            }
            return true
        case .prefixItems:
            for (item, schema) in zip(array, schemas) where !schema.accepts(item, depth: depth) { return false }
            return true
        case .items(_, let prefixCount):
            let schema = schemas[0]
            for item in array.dropFirst(prefixCount) where !schema.accepts(item, depth: depth) { return false }
            return true
        case .contains(_, let minimum, let maximum):
            let schema = schemas[0]
            var matches = 0
            for item in array where schema.accepts(item, depth: depth) { matches += 1 }
            return matches >= minimum && (maximum.map { matches <= $0 } ?? true)
        default:
            return true
        }
    }
}

private final class AllOfCheck: FastCheck {
    let schemas: [NodeRef]
    init(_ schemas: [FastNode]) { self.schemas = schemas.map(NodeRef.init) }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        schemas.allSatisfy { $0.accepts(value, depth: depth) }
    }
}

private final class AnyOfCheck: FastCheck {
    let schemas: [NodeRef]
    init(_ schemas: [FastNode]) { self.schemas = schemas.map(NodeRef.init) }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        schemas.contains { $0.accepts(value, depth: depth) }
    }
}

private final class OneOfCheck: FastCheck {
    let schemas: [NodeRef]
    init(_ schemas: [FastNode]) { self.schemas = schemas.map(NodeRef.init) }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        var matches = 0
        for schema in schemas where schema.accepts(value, depth: depth) {
            matches += 1
            if matches > 1 { return false }
        }
        return matches == 1
    }
}

private final class NotCheck: FastCheck {
    let schema: NodeRef
    init(_ schema: FastNode) { self.schema = NodeRef(schema) }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool { !schema.accepts(value, depth: depth) }
}

private final class ConditionalCheck: FastCheck {
    let condition: NodeRef
    let then: NodeRef?
    let otherwise: NodeRef?
    init(_ condition: FastNode, _ then: FastNode?, _ otherwise: FastNode?) {
        self.condition = NodeRef(condition)
        self.then = then.map(NodeRef.init)
        self.otherwise = otherwise.map(NodeRef.init)
    }
    override func accepts(_ value: JSONValue, depth: Int) -> Bool {
        if condition.accepts(value, depth: depth) { return then?.accepts(value, depth: depth) ?? true }
        return otherwise?.accepts(value, depth: depth) ?? true
    }
}
