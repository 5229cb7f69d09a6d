import FoundationEssentials
import Glibc
import JSONCore

extension JSONValue {
    /// String equality by code points, not Swift's canonical equivalence: "é" and "e\u{301}" are different JSON
    /// strings. Swift's `==` (fast for short strings) rules most pairs out; equal pairs are confirmed byte by byte.
    static func sameCodePoints(_ a: String, _ b: String) -> Bool {
        guard a == b else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }

    /// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by mathematical value
    /// (`1 == 1.0`), objects regardless of member order, booleans never equal to numbers.
    func schemaEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer, .real), (.real, .integer), (.real, .real): return numberValue == other.numberValue
        case (.string(let a), .string(let b)):
            return Self.sameCodePoints(a, b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.schemaEquals($1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count
                && a.allSatisfy { member in
                    b.first { Self.sameCodePoints($0.key, member.key) }.map { member.value.schemaEquals($0.value) }
                        ?? false
                }
        default:
            return self == other
        }
    }
}
