import CJansson

/// Serializes values to compact JSON with Jansson's `json_dumpb`.
///
/// Flags: `JSON_COMPACT | JSON_ENCODE_ANY`, and the smallest `JSON_REAL_PRECISION` at which every real in the value
/// prints as its shortest round-trip form (`40.2`, not `40.200000000000003`). Output never holds a raw newline:
/// Jansson escapes control characters inside strings.
public enum JSONSerializer {
    /// The compact JSON text of `value`, as UTF-8 bytes without a trailing newline.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    /// Appends the compact JSON text of `value` to `bytes`; lets the caller add a newline without copying.
    public static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        var precision = 1
        let root = JanssonReference(taking: value.makeJansson(precision: &precision))
        let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | cj_real_precision(Int32(precision))
        // Most protocol lines are small: try a stack-sized scratch first, then size exactly.
        let start = bytes.count
        let scratch = 512
        bytes.reserveCapacity(start + scratch)
        var needed = 0
        bytes.append(contentsOf: repeatElement(0, count: scratch))
        bytes.withUnsafeMutableBufferPointer { buffer in
            needed = buffer.baseAddress!.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: scratch) {
                json_dumpb(root.pointer, $0, scratch, flags)
            }
        }
        if needed <= scratch {
            bytes.removeLast(scratch - needed)
            return
        }
        bytes.removeLast(scratch)
        bytes.append(contentsOf: repeatElement(0, count: needed))
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = buffer.baseAddress!.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: needed) {
                json_dumpb(root.pointer, $0, needed, flags)
            }
        }
    }

    /// The compact JSON text of `value` as a `String`.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { JSONSerializer.string(self) }
}
