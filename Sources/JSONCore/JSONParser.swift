import CJansson
import Glibc

/// Parses JSON text with Jansson's `json_loadb`.
///
/// Flags: `JSON_DECODE_ANY` (a bare scalar is a JSON text), `JSON_REJECT_DUPLICATES` (a duplicate key is an error,
/// not a silent overwrite) and `JSON_ALLOW_NUL` (`\u0000` is a valid string escape). Never `JSON_DECODE_INT_AS_REAL`:
/// integers stay integers. Jansson rejects integers beyond 64 bits and reals beyond `Double` with
/// `numericOverflow`, and nesting deeper than ``maximumDepth`` with `stackOverflow`.
package enum JSONParser {
    /// `JSON_PARSER_MAX_DEPTH` of the Jansson this was built against.
    package static let maximumDepth = Int(cj_parser_max_depth())

    static let flags = Int(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

    /// Parses one complete JSON text; anything but white space after the value is an error.
    ///
    /// A raw NUL byte is rejected before Jansson sees it: its lexer takes NUL for the end of input, so `123\0x`
    /// would otherwise parse as `123`. A raw NUL is never valid JSON text (inside a string it must be escaped).
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        if let base = bytes.baseAddress, let nul = memchr(base, 0, bytes.count) {
            let position = base.distance(to: UnsafeRawPointer(nul))
            throw JSONParseError(
                code: .nullCharacter, text: "raw NUL byte in the input",
                line: 1 + bytes[..<position].count { $0 == 0x0A },
                column: position, position: position
            )
        }
        var error = json_error_t()
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        // json_loadb reads exactly `count` bytes; an empty buffer still needs a valid pointer.
        guard
            let root = withUnsafePointer(
                to: 0 as CChar,
                { empty in
                    json_loadb(base ?? empty, bytes.count, flags, &error)
                })
        else {
            throw JSONParseError(error)
        }
        let owned = JanssonReference(taking: root)
        return JSONValue(borrowing: owned.pointer)
    }

    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer -> Result<JSONValue, JSONParseError> in
            do throws(JSONParseError) {
                return .success(try parse(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses an upstream body: the value Jansson would give (or its error), read straight into Swift values when
    /// the text is plain JSON (``PlainJSONReader``), through ``parse(_:)`` otherwise. For bodies only: protocol
    /// lines are Jansson's alone.
    package static func parseBody(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        if let value = bytes.withUnsafeBytes({ PlainJSONReader.read($0) }) { return value }
        return try parse(bytes)
    }

    /// Whether `text` is well-formed UTF-8 (``PlainJSONReader/isValidUTF8(_:)``), for the tests.
    package static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        PlainJSONReader.isValidUTF8(text)
    }

    package static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONParseError {
    init(_ error: json_error_t) {
        var error = error
        let text = withUnsafeBytes(of: &error.text) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        self.init(
            code: Code(rawValue: Int32(cj_error_code(&error))),
            text: text,
            line: Int(error.line),
            column: Int(error.column),
            position: Int(error.position)
        )
    }
}
