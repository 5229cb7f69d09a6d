import JSONCore

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
