import JSONCore

extension JSONValue {
    /// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by mathematical value
    /// (`1 == 1.0`), objects regardless of member order, booleans never equal to numbers.
    func schemaEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer, .real), (.real, .integer), (.real, .real): return numberValue == other.numberValue
        case (.string(let a), .string(let b)):
            // Code points, not Swift's canonical equivalence: "é" and "e\u{301}" are different JSON strings.
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.schemaEquals($1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in
                b.first { $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) }.map { member.value.schemaEquals($0.value) } ?? false
            }
        default:
            return self == other
        }
    }
}
