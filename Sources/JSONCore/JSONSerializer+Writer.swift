import CJansson

extension JSONSerializer {
    /// Appends the compact JSON text of `value` — `json_dumpb`'s with ``JSONSerializer``'s flags, byte for byte —
    /// written from the Swift tree in one pass (a first, allocation-free pass only when the value holds reals, to
    /// learn the precision they all print with, as the dump's one `JSON_REAL_PRECISION` does).
    static func write(_ value: JSONValue, to bytes: inout [UInt8]) {
        var reals = Reals()
        collectReals(value, into: &reals)
        let start = bytes.count
        writeValue(value, &reals, to: &bytes)
        escapeActingCharacters(&bytes, from: start)
    }

    /// The reals of a value in writing order, each read once (``RealDigits``), and the precision they all print
    /// with; the write takes them back in the same order.
    private struct Reals {
        var digits: [RealDigits] = []
        var next = 0
        var precision = 0

        mutating func take() -> RealDigits {
            defer { next += 1 }
            return digits[next]
        }
    }

    private static func writeValue(_ value: JSONValue, _ reals: inout Reals, to bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(true):
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        case .bool(false):
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .integer(let integer):
            appendDecimal(integer, to: &bytes)
        case .real(let real):
            let digits = reals.take()
            guard real.isFinite else { return bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
            let precision = max(reals.precision, 1)
            if !appendShortestReal(real, digits, precision: precision, to: &bytes) {
                appendFormattedReal(real, precision: precision, to: &bytes)
            }
        case .string(var string):
            string.withUTF8 { appendQuotedEscapingControls($0, to: &bytes) }
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeValue(element, &reals, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                var key = member.key
                key.withUTF8 { appendQuotedEscapingControls($0, to: &bytes) }
                bytes.append(UInt8(ascii: ":"))
                writeValue(member.value, &reals, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Every real of `value` in writing order, and the most significant digits any of them needs
    /// (``JSONValue/significantDigits(_:)``; 0 without reals).
    private static func collectReals(_ value: JSONValue, into reals: inout Reals) {
        switch value {
        case .real(let real):
            let digits = RealDigits(real)
            if reals.digits.isEmpty { reals.digits.reserveCapacity(32) }
            reals.digits.append(digits)
            reals.precision = max(reals.precision, digits.significant)
        case .array(let elements): for element in elements { collectReals(element, into: &reals) }
        case .object(let object): for member in object.members { collectReals(member.value, into: &reals) }
        case .null, .bool, .integer, .string: break
        }
    }

    /// A real as Jansson writes it (`jsonp_dtostr`): `%.<precision>g`, then `.0` when that reads as an integer, and
    /// the exponent without its `+` and leading zeros (`1e300`, `1e-7`). Jansson has no NaN or infinity (its
    /// `json_real` refuses them, and the tree held `null` there): nor does this.
    static func appendReal(_ real: Double, precision: Int, to bytes: inout [UInt8]) {
        guard real.isFinite else { return bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
        if appendShortestReal(real, RealDigits(real), precision: precision, to: &bytes) { return }
        appendFormattedReal(real, precision: precision, to: &bytes)
    }

    /// ``appendReal(_:precision:to:)`` through `snprintf`, for every real: what the shortest-digits path is held to.
    static func appendFormattedReal(_ real: Double, precision: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let count = Int(cj_format_real(buffer.baseAddress, 64, Int32(precision), real))
            let text = UnsafeRawBufferPointer(start: buffer.baseAddress, count: min(count, 63))
            guard let exponent = text.firstIndex(of: UInt8(ascii: "e")) else {
                bytes.append(contentsOf: text)
                if !text.contains(UInt8(ascii: ".")) {
                    bytes.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
                }
                return
            }
            bytes.append(contentsOf: text[...exponent])
            var index = exponent + 1
            if text[index] == UInt8(ascii: "-") {
                bytes.append(UInt8(ascii: "-"))
                index += 1
            } else if text[index] == UInt8(ascii: "+") {
                index += 1
            }
            while index < text.count - 1, text[index] == UInt8(ascii: "0") { index += 1 }
            bytes.append(contentsOf: text[index...])
        }
    }
}
