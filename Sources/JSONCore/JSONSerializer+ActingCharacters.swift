extension JSONSerializer {
    /// Writes, inside the JSON text appended from `start`, every character that could act on a terminal but that
    /// JSON lets through raw as its `\u` escape: DEL, the C1 controls (U+0080…U+009F: a UTF-8 `CSI` clears an
    /// xterm's screen as `ESC [` does), the line and paragraph separators and the bidi embeddings, overrides and
    /// isolates (U+2028…U+202E, U+2066…U+2069). Jansson escapes only the C0 controls.
    ///
    /// The text stays exact (a JSON reader gets the same string), and `--format json` or a worker's line shown on a
    /// terminal cannot act there. Outside strings JSON text is ASCII, so every such byte sequence is inside one.
    /// A scan that finds nothing (nearly always) copies nothing.
    static func escapeActingCharacters(_ bytes: inout [UInt8], from start: Int) {
        guard let first = firstActing(bytes, from: start) else { return }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out = Array(bytes[..<first])
        out.reserveCapacity(bytes.count + 16)
        var index = first
        func escape(_ scalar: UInt32) {
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
            for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((scalar >> UInt32(shift)) & 0xF)]) }
        }
        while index < bytes.count {
            switch length(ofActingAt: index, in: bytes) {
            case 1:
                escape(0x7F)
                index += 1
            case 2:
                escape(UInt32(bytes[index + 1]))
                index += 2
            case 3:
                escape(0x2000 + UInt32(bytes[index + 1] - 0x80) * 64 + UInt32(bytes[index + 2] - 0x80))
                index += 3
            default:
                out.append(bytes[index])
                index += 1
            }
        }
        bytes = out
    }

    /// The index of the first acting character from `start`, or nil.
    ///
    /// Eight bytes at a time: a word is looked at byte by byte only when it holds one of the three bytes an acting
    /// character begins with (DEL, 0xC2, 0xE2), found with the SWAR zero-byte test on the word XORed with each. The
    /// whole answer is scanned, and a byte loop here was 3 % of an uncached call's instructions (issue 43).
    private static func firstActing(_ bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBytes { raw in
            var index = start
            while index + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if mayBeginActing(word) {
                    for offset in index..<(index + 8) where length(ofActingAt: offset, in: bytes) > 0 {
                        return offset
                    }
                }
                index += 8
            }
            while index < raw.count {
                if length(ofActingAt: index, in: bytes) > 0 { return index }
                index += 1
            }
            return nil
        }
    }

    /// Whether any byte of `word` is 0x7F, 0xC2 or 0xE2 (exact: the zero-byte test's borrows can misplace which
    /// byte, never invent one).
    private static func mayBeginActing(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return hasZeroByte(word ^ (ones &* 0x7F)) || hasZeroByte(word ^ (ones &* 0xC2))
            || hasZeroByte(word ^ (ones &* 0xE2))
    }

    /// How many bytes the acting character at `index` takes (DEL 1, a C1 control 2, a separator or bidi control
    /// 3), or 0 when none starts there.
    private static func length(ofActingAt index: Int, in bytes: [UInt8]) -> Int {
        let byte = bytes[index]
        if byte == 0x7F { return 1 }
        guard index + 1 < bytes.count else { return 0 }
        let next = bytes[index + 1]
        if byte == 0xC2 { return (0x80...0x9F).contains(next) ? 2 : 0 }
        guard byte == 0xE2, index + 2 < bytes.count else { return 0 }
        let last = bytes[index + 2]
        if next == 0x80, (0xA8...0xAE).contains(last) { return 3 }
        if next == 0x81, (0xA6...0xA9).contains(last) { return 3 }
        return 0
    }
}
