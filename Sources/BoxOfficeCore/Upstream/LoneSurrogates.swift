/// JSON text whose `\u` escapes of lone UTF-16 surrogates (`\ud800` without its pair, a low half alone) are made
/// `\ufffd`, the replacement character.
///
/// RFC 8259 lets such an escape through its grammar but it names no character: Jansson refuses the whole text,
/// and a Swift string cannot hold one. An upstream that sends one in a single title would otherwise have its whole
/// answer refused as `upstream_malformed`; with the repair the answer is read and the title shows `�`, as the
/// screens show any character that is not one. Applied once, where bodies enter (``LiveFetcher``), before they are
/// cached; a body without `\u` followed by `d`/`D` is returned as it is, without a copy.
package enum LoneSurrogates {
    package static func repaired(_ body: [UInt8]) -> [UInt8] {
        guard mayHaveOne(body) else { return body }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < body.count else {
                out.append(byte)
                index += 1
                continue
            }
            // An escape: `\\` and `\"` are copied whole, so an escaped backslash never starts a `\u` here.
            guard body[index + 1] == UInt8(ascii: "u"), let unit = Self.unit(body, at: index) else {
                out.append(contentsOf: body[index..<min(body.count, index + 2)])
                index += 2
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                if let low = Self.unit(body, at: index + 6), (0xDC00...0xDFFF).contains(low) {
                    out.append(contentsOf: body[index..<index + 12])
                    index += 12
                } else {
                    out.append(contentsOf: Array(#"\ufffd"#.utf8))
                    index += 6
                }
            case 0xDC00...0xDFFF:
                out.append(contentsOf: Array(#"\ufffd"#.utf8))
                index += 6
            default:
                out.append(contentsOf: body[index..<index + 6])
                index += 6
            }
        }
        return out
    }

    /// The code unit of the `\uXXXX` escape at `index`, or nil when there is none.
    static func unit(_ body: [UInt8], at index: Int) -> UInt32? {
        guard index + 6 <= body.count, body[index] == UInt8(ascii: "\\"), body[index + 1] == UInt8(ascii: "u")
        else { return nil }
        var value: UInt32 = 0
        for byte in body[index + 2..<index + 6] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Whether `body` holds `\u` followed by `d` or `D`: every surrogate escape starts so.
    static func mayHaveOne(_ body: [UInt8]) -> Bool {
        var from = 0
        while let at = ByteSearch.firstIndex(of: escape, in: body, from: from) {
            if at + 2 < body.count, body[at + 2] | 0x20 == UInt8(ascii: "d") { return true }
            from = at + 2
        }
        return false
    }

    private static let escape = Array(#"\u"#.utf8)
}
