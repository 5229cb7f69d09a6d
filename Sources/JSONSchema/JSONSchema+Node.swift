import JSONCore

extension JSONSchema {
    /// One compiled (sub)schema.
    indirect enum Node: Sendable {
        case always
        case never
        case assertions(Assertions)

        struct Assertions: Sendable {
            var types: [String]?
            var enumValues: [JSONValue]?
            var constValue: JSONValue?
            var properties: [(String, Node)] = []
            var required: [String] = []
            var additionalProperties: Node?
            var items: Node?
            var minimum: Double?
            var maximum: Double?
            var exclusiveMinimum: Double?
            var exclusiveMaximum: Double?
            var minLength: Int?
            var maxLength: Int?
            var minItems: Int?
            var maxItems: Int?
        }

        static let annotations: Set<String> = [
            "$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly",
            "writeOnly", "format",
        ]

        static func compile(_ schema: JSONValue, at path: JSONPointer) throws(SchemaCompilationError) -> Node {
            switch schema {
            case .bool(let bool):
                return bool ? .always : .never
            case .object(let object):
                var assertions = Assertions()
                for member in object {
                    let here = path.appending(member.key)
                    try assertions.read(member.key, member.value, at: here)
                }
                return .assertions(assertions)
            default:
                throw SchemaCompilationError(keywordLocation: path, message: "a schema must be an object or a boolean")
            }
        }
    }
}

extension JSONSchema.Node.Assertions {
    mutating func read(_ keyword: String, _ value: JSONValue, at path: JSONPointer) throws(SchemaCompilationError) {
        func fail(_ message: String) -> SchemaCompilationError {
            SchemaCompilationError(keywordLocation: path, message: message)
        }
        func number() throws(SchemaCompilationError) -> Double {
            guard let number = value.numberValue else { throw fail("\(keyword) must be a number") }
            return number
        }
        func count() throws(SchemaCompilationError) -> Int {
            guard let number = value.numberValue, number >= 0, number == number.rounded() else {
                throw fail("\(keyword) must be a non-negative integer")
            }
            return Int(number)
        }
        switch keyword {
        case "type":
            if let single = value.stringValue {
                types = [single]
            } else if let many = value.arrayValue, many.allSatisfy({ $0.stringValue != nil }) {
                types = many.compactMap(\.stringValue)
            } else {
                throw fail("type must be a string or an array of strings")
            }
        case "enum":
            guard let values = value.arrayValue else { throw fail("enum must be an array") }
            enumValues = values
        case "const":
            constValue = value
        case "properties":
            guard let object = value.objectValue else { throw fail("properties must be an object") }
            for member in object {
                properties.append((member.key, try JSONSchema.Node.compile(member.value, at: path.appending(member.key))))
            }
        case "required":
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw fail("required must be an array of strings")
            }
            required = names
        case "additionalProperties":
            additionalProperties = try JSONSchema.Node.compile(value, at: path)
        case "items":
            items = try JSONSchema.Node.compile(value, at: path)
        case "minimum": minimum = try number()
        case "maximum": maximum = try number()
        case "exclusiveMinimum": exclusiveMinimum = try number()
        case "exclusiveMaximum": exclusiveMaximum = try number()
        case "minLength": minLength = try count()
        case "maxLength": maxLength = try count()
        case "minItems": minItems = try count()
        case "maxItems": maxItems = try count()
        default:
            guard JSONSchema.Node.annotations.contains(keyword) else {
                throw fail("keyword \"\(keyword)\" is not implemented by this validator")
            }
        }
    }
}
