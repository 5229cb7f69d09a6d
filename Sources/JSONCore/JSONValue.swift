/// A JSON value as plain Swift data: Sendable, so it can cross task boundaries, and free of any Jansson handle.
///
/// Integers and reals stay distinct (`1` is `.integer(1)`, `1.0` is `.real(1.0)`), so a request id is echoed as the
/// same JSON value it arrived as. Objects keep their members in document order.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The JSON type name used in messages and by JSON Schema's `type` keyword.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .real: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    package var objectValue: JSONObject? {
        if case .object(let object) = self { object } else { nil }
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let array) = self { array } else { nil }
    }

    package var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    package var boolValue: Bool? {
        if case .bool(let bool) = self { bool } else { nil }
    }

    package var integerValue: Int64? {
        if case .integer(let integer) = self { integer } else { nil }
    }

    /// The numeric value of an integer or a real; `nil` for every other type.
    package var numberValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: nil
        }
    }

    package var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The member `key` of an object, or `nil` when this is not an object or has no such member.
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}
