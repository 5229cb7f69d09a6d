import JSONCore
import TestSupport
import Testing

@Suite("JSONParser: Jansson's json_loadb with the worker's flags")
struct JSONParserTests {
    @Test("integers and reals stay distinct")
    func integersAndReals() throws {
        #expect(try JSONParser.parse("1") == .integer(1))
        #expect(try JSONParser.parse("1.0") == .real(1.0))
        #expect(try JSONParser.parse("1.5") == .real(1.5))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
        #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser.parse("1e2") == .real(100))
    }

    @Test(
        "numbers beyond 64 bits or double precision are numeric overflow errors",
        arguments: [
            "9223372036854775808", "-9223372036854775809", "123123123123123123123123123123", "1e999", "[-1e400]",
        ])
    func numericOverflow(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.code == .numericOverflow)
        }
    }

    @Test("an error carries line, column, byte position and Jansson's code")
    func errorPosition() {
        do {
            _ = try JSONParser.parse("{\"a\":1,\n \"b\": x}")
            Issue.record("parsed invalid JSON")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 7)
            #expect(error.position == 15)  // Jansson reports the byte after the offending token
            #expect(error.code == .invalidSyntax)
            #expect(error.text.contains("invalid token"))
        }
    }

    @Test("duplicate keys are rejected, not overwritten")
    func duplicateKeys() {
        do {
            _ = try JSONParser.parse(#"{"a":1,"a":2}"#)
            Issue.record("accepted a duplicate key")
        } catch {
            #expect(error.code == .duplicateKey)
        }
    }

    @Test("trailing garbage is an error; surrounding white space is not")
    func trailingGarbage() throws {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":1} x"#) }
        #expect(try JSONParser.parse(" \t{\"a\":1}  ") == ["a": 1])
    }

    @Test("bare scalars are JSON texts (JSON_DECODE_ANY)")
    func bareScalars() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse(#""x""#) == "x")
        #expect(try JSONParser.parse("true") == true)
    }

    @Test("\\u0000 inside a string is kept (JSON_ALLOW_NUL)")
    func nulEscape() throws {
        #expect(try JSONParser.parse(#""a\u0000b""#) == .string("a\u{0}b"))
    }

    @Test("a raw NUL byte is an error, though Jansson alone would stop reading there")
    func rawNul() {
        for bytes: [UInt8] in [[0x31, 0x32, 0x33, 0x00], [0x22, 0x61, 0x00, 0x22], [0x7B, 0x7D, 0x00, 0x78]] {
            #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        }
    }

    @Test("invalid UTF-8 is rejected with its own code")
    func invalidUTF8() {
        do {
            _ = try JSONParser.parse([0x22, 0xC3, 0x28, 0x22])
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.code == .invalidUTF8)
        }
    }

    @Test("nesting deeper than Jansson's limit is a stack overflow error")
    func depthLimit() throws {
        let depth = JSONParser.maximumDepth
        let fits = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(try JSONParser.parse(fits).arrayValue?.count == 1)
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        do {
            _ = try JSONParser.parse(tooDeep)
            Issue.record("accepted nesting beyond the limit")
        } catch {
            #expect(error.code == .stackOverflow)
        }
    }

    @Test("object members keep document order")
    func memberOrder() throws {
        let object = try #require(try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
    }
}
