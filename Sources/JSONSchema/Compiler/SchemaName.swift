import JSONCore

/// A property name from a schema, with what makes comparing it cheap.
struct SchemaName: Sendable {
    let text: String
    let utf8Count: Int
    let isASCII: Bool

    init(_ text: String) {
        self.text = text
        utf8Count = text.utf8.count
        isASCII = text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Code-point equality. Swift's `==` is canonical equivalence; a string canonically equal to an ASCII name but
    /// different from it holds a non-ASCII character (KELVIN SIGN for "K") and so more UTF-8 bytes, which the count
    /// rules out. Non-ASCII names are confirmed byte by byte.
    @inline(__always)
    func matches(_ key: String) -> Bool {
        guard text == key, key.utf8.count == utf8Count else { return false }
        return isASCII || JSONValue.sameCodePoints(text, key)
    }
}
