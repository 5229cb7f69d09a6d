/// A set of ASCII bytes as two 64-bit masks: membership is a shift and a test.
///
/// Why: the lean client checks every byte of a URL and of each header against a character class per call, and a
/// class written as `Array("...".utf8).contains(byte)` allocated an array for every byte that was not a letter or a
/// digit (about 6 µs of an uncached call in URL reading alone, issue 43).
struct ASCIISet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// Letters and digits, and the ASCII characters of `others`.
    init(lettersDigitsAnd others: String) {
        for byte in others.utf8 { insert(byte) }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { insert(byte) }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { insert(byte) }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { insert(byte) }
    }

    private mutating func insert(_ byte: UInt8) {
        precondition(byte < 128, "an ASCII set holds ASCII")
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    /// Whether `byte` is an ASCII hex digit.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        let lowered = byte | 0x20
        return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "f"))
    }
}
