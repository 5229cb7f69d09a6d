/// Why a text is not JSON, as Jansson's `json_error_t` reported it.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Jansson's `enum json_error_code`, with named constants for the ones callers branch on.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let unknown = Code(rawValue: 0)
        public static let outOfMemory = Code(rawValue: 1)
        public static let stackOverflow = Code(rawValue: 2)
        public static let invalidUTF8 = Code(rawValue: 5)
        public static let prematureEndOfInput = Code(rawValue: 6)
        public static let endOfInputExpected = Code(rawValue: 7)
        public static let invalidSyntax = Code(rawValue: 8)
        public static let nullCharacter = Code(rawValue: 11)
        public static let nullByteInKey = Code(rawValue: 13)
        public static let duplicateKey = Code(rawValue: 14)
        public static let numericOverflow = Code(rawValue: 15)
    }

    public let code: Code
    /// Jansson's message, e.g. `"duplicate object key near '\"a\"'"`.
    public let text: String
    /// 1-based line, as Jansson counts it.
    public let line: Int
    /// 1-based column in characters, as Jansson counts it.
    public let column: Int
    /// 0-based byte offset of the error.
    public let position: Int

    public init(code: Code, text: String, line: Int, column: Int, position: Int) {
        self.code = code
        self.text = text
        self.line = line
        self.column = column
        self.position = position
    }

    public var description: String {
        "\(text) (line \(line), column \(column), byte \(position))"
    }
}
