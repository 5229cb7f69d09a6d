extension JSONSerializer {
    /// Appends `text` (valid UTF-8) as a JSON string literal, escaped as Jansson escapes: `"` and `\`, the control
    /// characters (`\b \f \n \r \t`, else `\u00XX`), and DEL, C1 and the bidi controls as their `\u` escapes
    /// (``escapeActingCharacters(_:from:)``); everything else as it is.
    ///
    /// A byte loop rather than `json_dumpb` of a string value: MCP sends every tool result twice, as structured
    /// content and as the same JSON in a text block, and quoting the kept text of a cached answer this way costs
    /// a few microseconds where building a Jansson string of it and dumping it cost tens.
    package static func appendQuoted(utf8 text: [UInt8], to bytes: inout [UInt8]) {
        let start = bytes.count
        text.withUnsafeBufferPointer { appendQuotedEscapingControls($0, to: &bytes) }
        escapeActingCharacters(&bytes, from: start)
    }

    /// `text` as a JSON string literal with `"`, `\` and the C0 controls escaped (Jansson's escapes), the acting
    /// characters left for the caller's one ``escapeActingCharacters(_:from:)`` over its whole output.
    ///
    /// No `reserveCapacity` here: an array grown by it gets exactly what is asked, not the doubling `append` gives,
    /// so reserving before each string reallocated and copied the whole output for nearly every string of an
    /// answer (244 copies for 300 strings; a fifth of an uncached call's answer writing, issue 43).
    static func appendQuotedEscapingControls(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(contentsOf: [
                    UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)],
                ])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
