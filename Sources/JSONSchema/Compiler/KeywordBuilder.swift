import JSONCore

/// Compiles the keywords of one schema object, in evaluation order: references, assertions, applicators, and the
/// `unevaluated*` keywords last (they see the annotations of everything before them).
struct KeywordBuilder {
    let compiler: SchemaCompiler
    let object: JSONObject
    let location: SchemaCompiler.Location
    let resource: SchemaCompiler.Resource

    private var keywords: [Keyword] = []

    init(
        compiler: SchemaCompiler, object: JSONObject, location: SchemaCompiler.Location,
        resource: SchemaCompiler.Resource
    ) {
        self.compiler = compiler
        self.object = object
        self.location = location
        self.resource = resource
    }

    private func path(_ keyword: String) -> JSONPointer {
        JSONPointer(tokens: location.pointer + [keyword])
    }

    private func fail(_ keyword: String, _ message: String) -> SchemaCompilationError {
        SchemaCompilationError(keywordLocation: path(keyword), message: message)
    }

    /// The keyword's value when present and enabled by the resource's vocabularies.
    private func value(_ keyword: String) -> JSONValue? {
        guard resource.vocabularies.enables(keyword) else { return nil }
        return object[keyword]
    }

    private func number(_ keyword: String) throws(SchemaCompilationError) -> Double? {
        guard let value = value(keyword) else { return nil }
        guard let number = value.numberValue else { throw fail(keyword, "\(keyword) must be a number") }
        return number
    }

    private func count(_ keyword: String) throws(SchemaCompilationError) -> Int? {
        guard let value = value(keyword) else { return nil }
        guard let number = value.numberValue, number >= 0, number == number.rounded(), number < 1e15 else {
            throw fail(keyword, "\(keyword) must be a non-negative integer")
        }
        return Int(number)
    }

    private func sub(_ tokens: String...) -> Int {
        compiler.subschema(SchemaCompiler.Location(document: location.document, pointer: location.pointer + tokens))
    }

    private func schemaArray(_ keyword: String) throws(SchemaCompilationError) -> [Int]? {
        guard let value = value(keyword) else { return nil }
        guard let array = value.arrayValue, !array.isEmpty else {
            throw fail(keyword, "\(keyword) must be a non-empty array of schemas")
        }
        return array.indices.map { sub(keyword, String($0)) }
    }

    private func regex(_ source: String, _ keyword: String) throws(SchemaCompilationError) -> ECMARegex {
        do {
            return try ECMARegex(source)
        } catch {
            throw fail(keyword, "\"\(source)\" is not a regular expression this validator can compile: \(error)")
        }
    }

    mutating func build() throws(SchemaCompilationError) -> [Keyword] {
        try references()
        try assertions()
        try arrays()
        try objects()
        try applicators()
        if value("unevaluatedItems") != nil {
            compiler.noteUnevaluated()
            keywords.append(.unevaluatedItems(sub("unevaluatedItems")))
        }
        if value("unevaluatedProperties") != nil {
            compiler.noteUnevaluated()
            keywords.append(.unevaluatedProperties(sub("unevaluatedProperties")))
        }
        return keywords
    }

    private mutating func references() throws(SchemaCompilationError) {
        if let ref = object["$ref"] {
            guard let text = ref.stringValue else { throw fail("$ref", "$ref must be a string") }
            keywords.append(.ref(try compiler.reference(text, base: resource.uri, at: path("$ref")).node))
        }
        if let ref = object["$dynamicRef"] {
            guard let text = ref.stringValue else { throw fail("$dynamicRef", "$dynamicRef must be a string") }
            let (node, anchor) = try compiler.reference(text, base: resource.uri, at: path("$dynamicRef"))
            if anchor != nil { compiler.noteDynamicScope() }
            keywords.append(.dynamicRef(node, anchor: anchor))
        }
    }

    private mutating func assertions() throws(SchemaCompilationError) {
        if let type = value("type") {
            let names = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
            var mask = TypeMask()
            for name in names {
                guard let bit = TypeMask(name: name) else {
                    throw fail("type", "\"\(name)\" is not a JSON Schema type")
                }
                mask.insert(bit)
            }
            guard !names.isEmpty, names.count == (type.arrayValue?.count ?? 1) else {
                throw fail("type", "type must be a type name or an array of them")
            }
            keywords.append(.type(mask))
        }
        if let values = value("enum") {
            guard let array = values.arrayValue else { throw fail("enum", "enum must be an array") }
            keywords.append(.enumeration(array))
        }
        if let constant = value("const") { keywords.append(.constant(constant)) }
        if let divisor = try number("multipleOf") {
            guard divisor > 0 else { throw fail("multipleOf", "multipleOf must be greater than 0") }
            keywords.append(.multipleOf(divisor))
        }
        if let bound = try number("maximum") { keywords.append(.maximum(bound)) }
        if let bound = try number("exclusiveMaximum") { keywords.append(.exclusiveMaximum(bound)) }
        if let bound = try number("minimum") { keywords.append(.minimum(bound)) }
        if let bound = try number("exclusiveMinimum") { keywords.append(.exclusiveMinimum(bound)) }
        if let length = try count("maxLength") { keywords.append(.maxLength(length)) }
        if let length = try count("minLength") { keywords.append(.minLength(length)) }
        if let pattern = value("pattern") {
            guard let source = pattern.stringValue else { throw fail("pattern", "pattern must be a string") }
            keywords.append(.pattern(try regex(source, "pattern")))
        }
        if case .string(let format)? = object["format"] {
            keywords.append(.format(format, FormatChecker(format)))
        }
    }

    private mutating func arrays() throws(SchemaCompilationError) {
        var prefixCount = 0
        if let prefix = try schemaArray("prefixItems") {
            prefixCount = prefix.count
            keywords.append(.prefixItems(prefix))
        }
        if let items = value("items") {
            guard items.arrayValue == nil else {
                throw fail("items", "items must be a schema in draft 2020-12 (an array of schemas is prefixItems)")
            }
            keywords.append(.items(sub("items"), prefixCount: prefixCount))
        }
        if value("contains") != nil {
            let minimum = try count("minContains") ?? 1
            keywords.append(.contains(sub("contains"), min: minimum, max: try count("maxContains")))
        }
        if let limit = try count("maxItems") { keywords.append(.maxItems(limit)) }
        if let limit = try count("minItems") { keywords.append(.minItems(limit)) }
        if value("uniqueItems") == .bool(true) { keywords.append(.uniqueItems) }
    }

    private mutating func objects() throws(SchemaCompilationError) {
        if let limit = try count("maxProperties") { keywords.append(.maxProperties(limit)) }
        if let limit = try count("minProperties") { keywords.append(.minProperties(limit)) }
        if let required = value("required") {
            guard let names = required.arrayValue?.compactMap(\.stringValue), names.count == required.arrayValue?.count
            else {
                throw fail("required", "required must be an array of strings")
            }
            if !names.isEmpty { keywords.append(.required(names)) }
        }
        if let dependent = value("dependentRequired") {
            guard let members = dependent.objectValue else {
                throw fail("dependentRequired", "dependentRequired must be an object")
            }
            keywords.append(
                .dependentRequired(members.map { ($0.key, $0.value.arrayValue?.compactMap(\.stringValue) ?? []) }))
        }
        var known: [(String, Int)] = []
        if let properties = value("properties") {
            guard let members = properties.objectValue else { throw fail("properties", "properties must be an object") }
            known = members.map { ($0.key, sub("properties", $0.key)) }
            keywords.append(.properties(PropertyTable(known)))
        }
        var patterns: [ECMARegex] = []
        if let patternProperties = value("patternProperties") {
            guard let members = patternProperties.objectValue else {
                throw fail("patternProperties", "patternProperties must be an object")
            }
            var compiled: [(ECMARegex, Int)] = []
            for member in members {
                let pattern = try regex(member.key, "patternProperties")
                patterns.append(pattern)
                compiled.append((pattern, sub("patternProperties", member.key)))
            }
            keywords.append(.patternProperties(compiled))
        }
        if value("additionalProperties") != nil {
            keywords.append(
                .additionalProperties(sub("additionalProperties"), known: PropertyTable(known), patterns: patterns))
        }
        if value("propertyNames") != nil { keywords.append(.propertyNames(sub("propertyNames"))) }
        if let dependent = value("dependentSchemas") {
            guard let members = dependent.objectValue else {
                throw fail("dependentSchemas", "dependentSchemas must be an object")
            }
            keywords.append(.dependentSchemas(members.map { ($0.key, sub("dependentSchemas", $0.key)) }))
        }
    }

    private mutating func applicators() throws(SchemaCompilationError) {
        if let all = try schemaArray("allOf") { keywords.append(.allOf(all)) }
        if let any = try schemaArray("anyOf") { keywords.append(.anyOf(any)) }
        if let one = try schemaArray("oneOf") { keywords.append(.oneOf(one)) }
        if value("not") != nil { keywords.append(.not(sub("not"))) }
        if value("if") != nil {
            keywords.append(
                .conditional(
                    if: sub("if"),
                    then: value("then") != nil ? sub("then") : nil,
                    else: value("else") != nil ? sub("else") : nil
                ))
        }
    }
}
