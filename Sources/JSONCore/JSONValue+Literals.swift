/// Literal builders, so code and tests can write `["jsonrpc": "2.0", "id": 1]` for a JSON value.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(nilLiteral: ()) { self = .null }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .real(value) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(literal: elements)) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(literal: elements) }

    /// A literal's keys are written out in code and unique (as Swift's `Dictionary` literals require), so the
    /// duplicate scan of ``init(_:)`` is skipped; debug builds still check.
    init(literal elements: [(String, JSONValue)]) {
        assert(Set(elements.map(\.0)).count == elements.count, "duplicate key in a JSON object literal")
        self.init(uniqueMembers: elements.map { Member(key: $0.0, value: $0.1) })
    }
}

extension JSONValue {
    /// An integer value from any Swift integer that fits in 64 bits.
    package static func int<T: BinaryInteger>(_ value: T) -> JSONValue { .integer(Int64(value)) }

    /// A string value, or `null` when the string is absent.
    package static func optionalString(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}
