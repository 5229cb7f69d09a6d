import CJansson

/// Serializes values to compact JSON: the text Jansson's `json_dumpb` gives, byte for byte.
///
/// Flags: `JSON_COMPACT | JSON_ENCODE_ANY`, and the smallest `JSON_REAL_PRECISION` at which every real in the value
/// prints as its shortest round-trip form (`40.2`, not `40.200000000000003`). Output never holds a raw newline:
/// control characters inside strings are escaped as Jansson escapes them, and DEL, C1 and the bidi controls after
/// it (``escapeActingCharacters(_:from:)``).
///
/// Values are written straight from the Swift tree (``JSONSerializer+Writer.swift``), not by building a Jansson tree
/// and dumping it: that build (a hash table per object, a malloc per value) and the dump were a seventh of an uncached
/// call's CPU (issue 43). `json_dumpb` stays the reference the writer is held to, text for text, by the tests
/// (``janssonText(_:)``: every JSONTestSuite and Jansson suite document, the recorded upstream bodies, reals and
/// strings at their edges).
package enum JSONSerializer {
    /// The compact JSON text of `value`, as UTF-8 bytes without a trailing newline.
    package static func serialize(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    /// Appends the compact JSON text of `value` to `bytes`, and a newline when `newline` is set, without an
    /// intermediate copy: the protocol writer's hot path.
    package static func append(_ value: JSONValue, to bytes: inout [UInt8], newline: Bool = false) {
        write(value, to: &bytes)
        if newline { bytes.append(UInt8(ascii: "\n")) }
    }

    /// Appends raw bytes that are already JSON text (a fixed envelope around values).
    package static func appendLiteral(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value == .min {
            bytes.append(contentsOf: "-9223372036854775808".utf8)
            return
        }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// `json_dumpb`'s text of `value` (through a Jansson tree): the reference ``write(_:to:)`` is tested against.
    package static func janssonText(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        dumpWithJansson(value, to: &bytes)
        return bytes
    }

    /// json_dumpb of `value`, appended.
    ///
    /// Jansson reports a too-small buffer only after formatting the whole value, so a second pass costs a whole
    /// dump again. The tree's estimated length (strings and keys as they are, a margin per value) sizes the first
    /// pass; only values whose escapes outgrow the margin pay for a second one.
    static func dumpWithJansson(_ value: JSONValue, to bytes: inout [UInt8]) {
        var precision = 1
        var estimate = 0
        let root = JanssonReference(taking: value.makeJansson(precision: &precision, length: &estimate))
        let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | cj_real_precision(Int32(precision))
        let start = bytes.count
        var capacity = estimate + estimate / 4 + 64
        while true {
            bytes.append(contentsOf: repeatElement(0, count: capacity))
            let needed = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: capacity) {
                    json_dumpb(root.pointer, $0, capacity, flags)
                }
            }
            bytes.removeLast(capacity - min(needed, capacity))
            if needed <= capacity {
                escapeActingCharacters(&bytes, from: start)
                return
            }
            bytes.removeLast(bytes.count - start)
            capacity = needed
        }
    }

    /// The compact JSON text of `value` followed by a newline: one protocol line.
    package static func line(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes, newline: true)
        return bytes
    }

    /// The compact JSON text of `value` as a `String`.
    package static func string(_ value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    package var description: String { JSONSerializer.string(self) }
}
