import JSONCore

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

/// A JSON type as a bit, so `type: ["string", "null"]` is one mask test.
struct TypeMask: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = TypeMask(rawValue: 1)
    static let boolean = TypeMask(rawValue: 2)
    static let object = TypeMask(rawValue: 4)
    static let array = TypeMask(rawValue: 8)
    static let number = TypeMask(rawValue: 16)
    static let string = TypeMask(rawValue: 32)
    static let integer = TypeMask(rawValue: 64)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "number": self = .number
        case "string": self = .string
        case "integer": self = .integer
        default: return nil
        }
    }

    func admits(_ value: JSONValue) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .object: contains(.object)
        case .array: contains(.array)
        case .string: contains(.string)
        case .integer: contains(.number) || contains(.integer)
        case .real(let real):
            contains(.number) || (contains(.integer) && real.isFinite && real == real.rounded(.towardZero))
        }
    }

    var names: [String] {
        [
            ("null", TypeMask.null), ("boolean", .boolean), ("object", .object), ("array", .array), ("number", .number),
            ("string", .string), ("integer", .integer),
        ].filter { contains($0.1) }.map(\.0)
    }
}

/// A compiled keyword. Subschemas are indexes into the compiled graph's node table.
enum Keyword: Sendable {
    case ref(Int)
    /// `$dynamicRef`: the statically resolved node, and the anchor to look up in the dynamic scope when the static
    /// target was found through a `$dynamicAnchor` of that name.
    case dynamicRef(Int, anchor: String?)
    case type(TypeMask)
    case enumeration([JSONValue])
    case constant(JSONValue)
    case multipleOf(Double)
    case maximum(Double)
    case exclusiveMaximum(Double)
    case minimum(Double)
    case exclusiveMinimum(Double)
    case maxLength(Int)
    case minLength(Int)
    case pattern(ECMARegex)
    /// The format's name, and its checker when this validator can assert it.
    case format(String, FormatChecker?)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(String, [String])])
    case properties(PropertyTable)
    case patternProperties([(ECMARegex, Int)])
    /// `additionalProperties`, with the names and patterns of its sibling `properties`/`patternProperties`.
    case additionalProperties(Int, known: PropertyTable, patterns: [ECMARegex])
    case propertyNames(Int)
    case dependentSchemas([(String, Int)])
    case prefixItems([Int])
    /// `items` applies after `prefixCount` items (the sibling `prefixItems`).
    case items(Int, prefixCount: Int)
    case contains(Int, min: Int, max: Int?)
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(if: Int, then: Int?, else: Int?)
    case unevaluatedItems(Int)
    case unevaluatedProperties(Int)

    /// The keyword's name, for keyword locations.
    var name: String {
        switch self {
        case .ref: "$ref"
        case .dynamicRef: "$dynamicRef"
        case .type: "type"
        case .enumeration: "enum"
        case .constant: "const"
        case .multipleOf: "multipleOf"
        case .maximum: "maximum"
        case .exclusiveMaximum: "exclusiveMaximum"
        case .minimum: "minimum"
        case .exclusiveMinimum: "exclusiveMinimum"
        case .maxLength: "maxLength"
        case .minLength: "minLength"
        case .pattern: "pattern"
        case .format: "format"
        case .maxItems: "maxItems"
        case .minItems: "minItems"
        case .uniqueItems: "uniqueItems"
        case .maxProperties: "maxProperties"
        case .minProperties: "minProperties"
        case .required: "required"
        case .dependentRequired: "dependentRequired"
        case .properties: "properties"
        case .patternProperties: "patternProperties"
        case .additionalProperties: "additionalProperties"
        case .propertyNames: "propertyNames"
        case .dependentSchemas: "dependentSchemas"
        case .prefixItems: "prefixItems"
        case .items: "items"
        case .contains: "contains"
        case .allOf: "allOf"
        case .anyOf: "anyOf"
        case .oneOf: "oneOf"
        case .not: "not"
        case .conditional: "if"
        case .unevaluatedItems: "unevaluatedItems"
        case .unevaluatedProperties: "unevaluatedProperties"
        }
    }
}

/// Property names to subschemas. Small tables (most schemas) are scanned: Swift compares short strings as raw bits,
/// which beats hashing each instance key; large tables hash. Matches compare code points, not Swift's canonical
/// equivalence, as JSON requires.
struct PropertyTable: Sendable {
    /// Every entry, in schema order.
    let entries: [(String, Int)]
    private let small: [(String, Int)]
    /// By name, each entry keeping its own name: Swift's dictionary matches canonically equivalent keys, so a
    /// hit is confirmed against the stored name by code points.
    private let large: [String: (name: String, schema: Int)]?

    static let scanLimit = 16

    init(_ entries: [(String, Int)]) {
        self.entries = entries
        if entries.count <= Self.scanLimit {
            small = entries
            large = nil
        } else {
            small = []
            large = Dictionary(
                entries.map { ($0.0, (name: $0.0, schema: $0.1)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    func lookup(_ key: String) -> Int? {
        if let large {
            guard let entry = large[key], JSONValue.sameCodePoints(entry.name, key) else { return nil }
            return entry.schema
        }
        for (name, schema) in small where name == key && JSONValue.sameCodePoints(name, key) {
            return schema
        }
        return nil
    }
}
