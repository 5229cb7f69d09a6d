import JSONCore

extension JSONSchema.Node {
    func validate(_ instance: JSONValue, at location: JSONPointer, schemaPath: JSONPointer, into errors: inout [ValidationError]) {
        switch self {
        case .always:
            return
        case .never:
            errors.append(ValidationError(
                instanceLocation: location, keywordLocation: schemaPath, message: "no value is allowed here"
            ))
        case .assertions(let assertions):
            assertions.validate(instance, at: location, schemaPath: schemaPath, into: &errors)
        }
    }
}

extension JSONSchema.Node.Assertions {
    func validate(_ instance: JSONValue, at location: JSONPointer, schemaPath: JSONPointer, into errors: inout [ValidationError]) {
        func report(_ keyword: String, _ message: String) {
            errors.append(ValidationError(
                instanceLocation: location, keywordLocation: schemaPath.appending(keyword), message: message
            ))
        }
        if let types, !types.contains(where: { Self.matches(instance, type: $0) }) {
            report("type", "\(instance.typeName) is not allowed here; expected \(types.joined(separator: " or "))")
            return
        }
        if let enumValues, !enumValues.contains(where: { Self.equal($0, instance) }) {
            report("enum", "\(instance) is not one of \(JSONValue.array(enumValues))")
        }
        if let constValue, !Self.equal(constValue, instance) {
            report("const", "\(instance) must be \(constValue)")
        }
        switch instance {
        case .object(let object):
            for name in required where object[name] == nil {
                report("required", "the property \"\(name)\" is required")
            }
            for member in object {
                let here = location.appending(member.key)
                if let (_, node) = properties.first(where: { $0.0 == member.key }) {
                    node.validate(member.value, at: here, schemaPath: schemaPath.appending("properties").appending(member.key), into: &errors)
                } else if let additionalProperties {
                    if case .never = additionalProperties {
                        errors.append(ValidationError(
                            instanceLocation: here,
                            keywordLocation: schemaPath.appending("additionalProperties"),
                            message: "the property \"\(member.key)\" is not allowed"
                        ))
                    } else {
                        additionalProperties.validate(member.value, at: here, schemaPath: schemaPath.appending("additionalProperties"), into: &errors)
                    }
                }
            }
        case .array(let array):
            if let minItems, array.count < minItems { report("minItems", "has \(array.count) items, fewer than \(minItems)") }
            if let maxItems, array.count > maxItems { report("maxItems", "has \(array.count) items, more than \(maxItems)") }
            if let items {
                for (index, element) in array.enumerated() {
                    items.validate(element, at: location.appending(index), schemaPath: schemaPath.appending("items"), into: &errors)
                }
            }
        case .string(let string):
            let length = string.unicodeScalars.count
            if let minLength, length < minLength { report("minLength", "is \(length) characters long, shorter than \(minLength)") }
            if let maxLength, length > maxLength { report("maxLength", "is \(length) characters long, longer than \(maxLength)") }
        case .integer, .real:
            let number = instance.numberValue!
            if let minimum, number < minimum { report("minimum", "\(instance) is less than the minimum \(JSONValue.real(minimum).compactNumber)") }
            if let maximum, number > maximum { report("maximum", "\(instance) is greater than the maximum \(JSONValue.real(maximum).compactNumber)") }
            if let exclusiveMinimum, number <= exclusiveMinimum { report("exclusiveMinimum", "\(instance) must be greater than \(JSONValue.real(exclusiveMinimum).compactNumber)") }
            if let exclusiveMaximum, number >= exclusiveMaximum { report("exclusiveMaximum", "\(instance) must be less than \(JSONValue.real(exclusiveMaximum).compactNumber)") }
        default:
            break
        }
    }

    static func matches(_ instance: JSONValue, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
             ("number", .integer), ("number", .real), ("integer", .integer):
            true
        case ("integer", .real(let real)):
            real == real.rounded(.towardZero) && real.isFinite
        default:
            false
        }
    }

    /// JSON Schema equality: numbers compare by value (`1 == 1.0`), objects ignore member order.
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer, .real), (.real, .integer), (.real, .real):
            return lhs.numberValue == rhs.numberValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in b[member.key].map { equal(member.value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }
}

extension JSONValue {
    /// A bound printed as an integer when it is one (`10`, not `10.0`).
    var compactNumber: String {
        if case .real(let real) = self, real == real.rounded(), abs(real) < 1e15 { return String(Int64(real)) }
        return description
    }
}
