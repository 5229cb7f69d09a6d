import JSONCore

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
