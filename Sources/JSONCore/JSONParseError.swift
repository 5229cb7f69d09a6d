/// Why a text is not JSON, as Jansson's `json_error_t` reported it.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Jansson's `enum json_error_code`, with named constants for the ones callers branch on.
    package struct Code: RawRepresentable, Sendable, Hashable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        package static let unknown = Code(rawValue: 0)
        package static let outOfMemory = Code(rawValue: 1)
        package static let stackOverflow = Code(rawValue: 2)
        package static let invalidUTF8 = Code(rawValue: 5)
        package static let prematureEndOfInput = Code(rawValue: 6)
        package static let endOfInputExpected = Code(rawValue: 7)
        package static let invalidSyntax = Code(rawValue: 8)
        package static let nullCharacter = Code(rawValue: 11)
        package static let nullByteInKey = Code(rawValue: 13)
        package static let duplicateKey = Code(rawValue: 14)
        package static let numericOverflow = Code(rawValue: 15)
    }

    package let code: Code
    /// Jansson's message, e.g. `"duplicate object key near '\"a\"'"`.
    package let text: String
    /// 1-based line, as Jansson counts it.
    package let line: Int
    /// 1-based column in characters, as Jansson counts it.
    package let column: Int
    /// 0-based byte offset of the error.
    package let position: Int

    package init(code: Code, text: String, line: Int, column: Int, position: Int) {
        self.code = code
        self.text = text
        self.line = line
        self.column = column
        self.position = position
    }

    package var description: String {
        "\(text) (line \(line), column \(column), byte \(position))"
    }
}
