/// A value bound to a statement's parameter or read from a result column: SQLite's five storage classes.
package enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer of an INTEGER column (a REAL one truncated, as SQLite's own cast does); nil for anything else.
    package var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value.rounded(.towardZero))
        default: nil
        }
    }

    /// An `Int` column's value.
    package var int: Int? { integer.flatMap { Int(exactly: $0) } }

    /// The number of a REAL or INTEGER column.
    package var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    package var text: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The bytes of a BLOB column (a TEXT one's UTF-8, as SQLite hands it over).
    package var bytes: [UInt8]? {
        switch self {
        case .blob(let value): value
        case .text(let value): Array(value.utf8)
        default: nil
        }
    }
}

extension SQLiteValue {
    package init(_ value: Int) { self = .integer(Int64(value)) }
    package init(_ value: String?) { self = value.map(SQLiteValue.text) ?? .null }
}
