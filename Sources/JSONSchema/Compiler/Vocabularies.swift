import JSONCore

/// The draft 2020-12 vocabularies a schema resource uses, from its meta-schema's `$vocabulary`.
struct Vocabularies: Sendable, Hashable {
    var applicator = true
    var unevaluated = true
    var validation = true
    var formatAssertion = false

    static let all = Vocabularies()

    static let prefix = "https://json-schema.org/draft/2020-12/vocab/"

    /// Reads a `$vocabulary` object; an unknown vocabulary that is required is an error, an optional one ignored.
    init(declared: [(uri: String, required: Bool)]) throws(SchemaCompilationError) {
        applicator = false
        unevaluated = false
        validation = false
        for (uri, required) in declared {
            switch uri {
            case Self.prefix + "core", Self.prefix + "meta-data", Self.prefix + "content",
                Self.prefix + "format-annotation":
                break
            case Self.prefix + "applicator": applicator = true
            case Self.prefix + "unevaluated": unevaluated = true
            case Self.prefix + "validation": validation = true
            case Self.prefix + "format-assertion": formatAssertion = true
            default:
                if required {
                    throw SchemaCompilationError(
                        keywordLocation: JSONPointer(tokens: ["$vocabulary"]),
                        message:
                            "the meta-schema requires the vocabulary \(uri), which this validator does not implement"
                    )
                }
            }
        }
    }

    init() {}

    func enables(_ keyword: String) -> Bool {
        switch keyword {
        case "prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
            "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not":
            applicator
        case "unevaluatedItems", "unevaluatedProperties":
            unevaluated
        case "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
            "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
            "maxProperties", "minProperties", "required", "dependentRequired":
            validation
        default:
            true
        }
    }
}
