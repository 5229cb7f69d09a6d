package import JSONCore

/// What a handler answers with: a value, or the compact JSON text of a value made earlier.
///
/// The text form lets a method hand back a result it serialized once and kept (the box office methods keep the
/// text of an answer for each cached upstream body): building and dumping a large result is most of the cost of
/// answering it again.
package enum RPCResult: Sendable {
    case value(JSONValue)
    /// The compact JSON text of one value, without a newline, as ``JSONSerializer`` writes it.
    case encoded([UInt8])

    /// The result as a value (parsing the text form).
    package func value() throws -> JSONValue {
        switch self {
        case .value(let value): value
        case .encoded(let bytes): try JSONParser.parse(bytes)
        }
    }

    /// The result's compact JSON text.
    package var json: [UInt8] {
        switch self {
        case .value(let value): JSONSerializer.serialize(value)
        case .encoded(let bytes): bytes
        }
    }

    func append(to bytes: inout [UInt8]) {
        switch self {
        case .value(let value): JSONSerializer.append(value, to: &bytes)
        case .encoded(let text): bytes.append(contentsOf: text)
        }
    }
}
