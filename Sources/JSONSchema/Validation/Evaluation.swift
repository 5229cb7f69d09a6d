import JSONCore

/// One validation of one instance against a compiled graph.
///
/// Two modes share this code: the fast mode answers valid or not and stops at the first failure; the collecting
/// mode (used only when the fast mode said invalid) walks on and records every failure with its instance and
/// keyword locations. Inside `anyOf`, `oneOf`, `not`, `if` and `contains` subschemas are always evaluated fast:
/// their failures are expected and summarised by the keyword itself.
struct Evaluation {
    let graph: CompiledGraph
    var collecting: Bool
    private(set) var errors: [ValidationError] = []
    var instancePath: [String] = []
    var keywordPath: [String] = []
    /// Schema resources entered, outermost first: the dynamic scope of `$dynamicRef`.
    private var scope: [Int] = []
    private var depth = 0
    /// The subschemas being applied, innermost last, and where those applied to the current value begin. A
    /// subschema applied again to the same value (through `$ref`, `allOf`, `anyOf`, … with no descent into the value
    /// between) would apply itself to it forever; with two ways back, the depth limit alone took exponentially many
    /// steps to stop it (found by the schema fuzz target).
    private var applying: [Int] = []
    private var sameValueFrom = 0

    static let maximumDepth = 400

    init(graph: CompiledGraph, collecting: Bool) {
        self.graph = graph
        self.collecting = collecting
    }

    /// Validates `instance` against node `index`; on success adds the node's annotations to `annotations`.
    mutating func validate(_ index: Int, _ instance: JSONValue, into annotations: inout Annotations) -> Bool {
        let node = graph.nodes[index]
        switch node.body {
        case .always:
            return true
        case .never:
            report(nil, "no value is allowed here (the schema is false)")
            return false
        case .keywords(let keywords):
            guard depth < Self.maximumDepth else {
                report(nil, "the schema nests references more than \(Self.maximumDepth) deep for this value")
                return false
            }
            guard !applying[sameValueFrom...].contains(index) else {
                report(nil, "the schema applies a subschema to this value again from within itself: an endless loop")
                return false
            }
            applying.append(index)
            depth += 1
            let entered = graph.usesDynamicScope && scope.last != node.resource
            if entered { scope.append(node.resource) }
            defer {
                if entered { scope.removeLast() }
                depth -= 1
                applying.removeLast()
            }
            var local = Annotations()
            var valid = true
            for keyword in keywords {
                if !apply(keyword, to: instance, &local) {
                    valid = false
                    if !collecting { return false }
                }
            }
            if valid && graph.tracksAnnotations { annotations.merge(local) }
            return valid
        }
    }

    // MARK: Locations and reports

    mutating func report(_ keyword: String?, _ message: String) {
        guard collecting else { return }
        errors.append(
            ValidationError(
                instanceLocation: JSONPointer(tokens: instancePath),
                keywordLocation: JSONPointer(tokens: keyword.map { keywordPath + [$0] } ?? keywordPath),
                message: message
            ))
    }

    /// Validates a subschema reached through `keyword` (and `sub` below it) at instance child `child`.
    ///
    /// Annotations describe one instance location: those of a child value never reach the parent's. Path tokens
    /// become strings only in the collecting mode, so the fast mode allocates nothing here.
    mutating func descend(
        _ index: Int, _ instance: JSONValue, child: PathToken, keyword: StaticString, _ sub: PathToken = .none,
        into annotations: inout Annotations
    ) -> Bool {
        if case .none = child {
            return descendHere(index, instance, child: child, keyword: keyword, sub, into: &annotations)
        }
        // A value inside this one: none of the subschemas being applied has been applied to it yet.
        let outer = sameValueFrom
        sameValueFrom = applying.count
        defer { sameValueFrom = outer }
        var childAnnotations = Annotations()
        return descendHere(index, instance, child: child, keyword: keyword, sub, into: &childAnnotations)
    }

    private mutating func descendHere(
        _ index: Int, _ instance: JSONValue, child: PathToken, keyword: StaticString, _ sub: PathToken,
        into annotations: inout Annotations
    ) -> Bool {
        guard collecting else { return validate(index, instance, into: &annotations) }
        let childText = child.text
        if let childText { instancePath.append(childText) }
        keywordPath.append(keyword.description)
        let subText = sub.text
        if let subText { keywordPath.append(subText) }
        defer {
            if childText != nil { instancePath.removeLast() }
            keywordPath.removeLast(subText == nil ? 1 : 2)
        }
        return validate(index, instance, into: &annotations)
    }

    /// Evaluates without recording failures (for keywords whose subschemas may fail by design); `item` when
    /// `instance` is a value inside the current one (`contains`), not the current one.
    mutating func quietly(
        _ index: Int, _ instance: JSONValue, item: Bool = false, into annotations: inout Annotations
    ) -> Bool {
        let saved = (collecting, sameValueFrom)
        collecting = false
        if item { sameValueFrom = applying.count }
        defer { (collecting, sameValueFrom) = saved }
        return validate(index, instance, into: &annotations)
    }

    // MARK: Keywords

    private mutating func apply(_ keyword: Keyword, to instance: JSONValue, _ local: inout Annotations) -> Bool {
        switch keyword {
        case .ref(let target):
            return descend(target, instance, child: .none, keyword: "$ref", into: &local)
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor {
                for resource in scope {
                    if let node = graph.dynamicAnchors[resource][anchor] {
                        resolved = node
                        break
                    }
                }
            }
            return descend(resolved, instance, child: .none, keyword: "$dynamicRef", into: &local)
        case .type(let mask):
            if mask.admits(instance) { return true }
            report(
                "type",
                "\(Describe.value(instance)) is \(Describe.article(instance.typeName)), not \(mask.names.joined(separator: " or "))"
            )
            return false
        case .enumeration(let values):
            for value in values where value.schemaEquals(instance) { return true }
            report("enum", "\(Describe.value(instance)) is not one of \(Describe.list(values))")
            return false
        case .constant(let value):
            if value.schemaEquals(instance) { return true }
            report("const", "\(Describe.value(instance)) must be \(Describe.value(value))")
            return false
        case .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
            return number(keyword, instance)
        case .maxLength, .minLength, .pattern, .format:
            return string(keyword, instance)
        case .maxItems, .minItems, .uniqueItems, .prefixItems, .items, .contains, .unevaluatedItems:
            guard case .array(let array) = instance else { return true }
            return self.array(keyword, array, &local)
        case .maxProperties, .minProperties, .required, .dependentRequired, .properties, .patternProperties,
            .additionalProperties, .propertyNames, .dependentSchemas, .unevaluatedProperties:
            guard case .object(let object) = instance else { return true }
            return self.object(keyword, object, instance, &local)
        case .allOf(let schemas):
            var valid = true
            for (index, schema) in schemas.enumerated()
            where !descend(schema, instance, child: .none, keyword: "allOf", .index(index), into: &local) {
                valid = false
                if !collecting { return false }
            }
            return valid
        case .anyOf(let schemas):
            var matched = false
            for schema in schemas where quietly(schema, instance, into: &local) {
                matched = true
                if !graph.tracksAnnotations { break }
            }
            if !matched {
                report("anyOf", "\(Describe.value(instance)) matches none of the \(schemas.count) schemas in anyOf")
            }
            return matched
        case .oneOf(let schemas):
            var matches = 0
            var matchedAnnotations = Annotations()
            for schema in schemas {
                var candidate = Annotations()
                if quietly(schema, instance, into: &candidate) {
                    matches += 1
                    matchedAnnotations = candidate
                }
            }
            if matches == 1 {
                local.merge(matchedAnnotations)
                return true
            }
            report(
                "oneOf",
                matches == 0
                    ? "\(Describe.value(instance)) matches none of the \(schemas.count) schemas in oneOf"
                    : "\(Describe.value(instance)) matches \(matches) of the schemas in oneOf; exactly one must match")
            return false
        case .not(let schema):
            var ignored = Annotations()
            if !quietly(schema, instance, into: &ignored) { return true }
            report("not", "\(Describe.value(instance)) matches a schema it must not match")
            return false
        case .conditional(let condition, let then, let otherwise):
            var conditionAnnotations = Annotations()
            if quietly(condition, instance, into: &conditionAnnotations) {
                local.merge(conditionAnnotations)
                guard let then else { return true }
                return descend(then, instance, child: .none, keyword: "then", into: &local)
            }
            guard let otherwise else { return true }
            return descend(otherwise, instance, child: .none, keyword: "else", into: &local)
        }
    }

    private mutating func number(_ keyword: Keyword, _ instance: JSONValue) -> Bool {
        guard let value = instance.numberValue else { return true }
        let (valid, message): (Bool, String)
        switch keyword {
        case .multipleOf(let divisor):
            valid = Self.isMultiple(instance, of: divisor)
            message = "\(Describe.value(instance)) is not a multiple of \(Describe.number(divisor))"
        case .maximum(let bound):
            valid = value <= bound
            message = "\(Describe.value(instance)) is greater than the maximum \(Describe.number(bound))"
        case .exclusiveMaximum(let bound):
            valid = value < bound
            message = "\(Describe.value(instance)) must be less than \(Describe.number(bound))"
        case .minimum(let bound):
            valid = value >= bound
            message = "\(Describe.value(instance)) is less than the minimum \(Describe.number(bound))"
        case .exclusiveMinimum(let bound):
            valid = value > bound
            message = "\(Describe.value(instance)) must be greater than \(Describe.number(bound))"
        default:
            return true
        }
        if !valid { report(keyword.name, message) }
        return valid
    }

    static func isMultiple(_ instance: JSONValue, of divisor: Double) -> Bool {
        if case .integer(let integer) = instance, divisor == divisor.rounded(), divisor < 9.2e18 {
            return integer % Int64(divisor) == 0
        }
        guard let value = instance.numberValue else { return true }
        let quotient = value / divisor
        guard quotient.isFinite else { return false }
        // Decimal divisors (0.01) are not exact in binary: accept a quotient within rounding of an integer.
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    private mutating func string(_ keyword: Keyword, _ instance: JSONValue) -> Bool {
        guard case .string(let text) = instance else { return true }
        switch keyword {
        case .maxLength(let limit):
            let length = text.unicodeScalars.count
            if length <= limit { return true }
            report("maxLength", "\(Describe.value(instance)) is \(length) characters long, more than \(limit)")
        case .minLength(let limit):
            let length = text.unicodeScalars.count
            if length >= limit { return true }
            report("minLength", "\(Describe.value(instance)) is \(length) characters long, fewer than \(limit)")
        case .pattern(let regex):
            if regex.matches(text) { return true }
            report("pattern", "\(Describe.value(instance)) does not match the pattern \(regex.source)")
        case .format(let format, let checker):
            guard graph.assertFormats, let checker else { return true }
            if checker.accepts(text) { return true }
            report("format", "\(Describe.value(instance)) is not a valid \(format)")
        default:
            return true
        }
        return false
    }
}

/// A step in an instance or keyword path, turned into text only when an error is recorded.
enum PathToken {
    case none
    case key(String)
    case index(Int)

    var text: String? {
        switch self {
        case .none: nil
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}

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
