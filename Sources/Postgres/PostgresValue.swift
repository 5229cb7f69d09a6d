/// A parameter sent with a statement, or a column of a row that came back: the types the worker's tables use.
///
/// Parameters travel as text with their type named (`int8`, `float8`, `text`), bytes as binary `bytea`; results
/// come back in binary and are read by their column's type (``PostgresConnection``).
package enum PostgresValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)

    package init(_ value: Int) { self = .int(Int64(value)) }
    package init(_ value: String?) { self = value.map(PostgresValue.text) ?? .null }

    package var int: Int? {
        if case .int(let value) = self { Int(exactly: value) } else { nil }
    }

    package var double: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }

    package var text: String? {
        if case .text(let value) = self { value } else { nil }
    }

    package var bytes: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }
}
