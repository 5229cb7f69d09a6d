import JSONCore
import Testing

@Suite("JSONSerializer: compact json_dumpb")
struct JSONSerializerTests {
    @Test("compact output, members in order")
    func compact() {
        let value: JSONValue = ["jsonrpc": "2.0", "id": 1, "result": ["a": [1, 2.5, nil, true, "x"]]]
        #expect(value.description == #"{"jsonrpc":"2.0","id":1,"result":{"a":[1,2.5,null,true,"x"]}}"#)
    }

    @Test(
        "reals print in their shortest round-trip form and stay reals",
        arguments: [
            (40.2, "40.2"), (0.1, "0.1"), (1.5, "1.5"), (100.0, "100.0"), (-8.2, "-8.2"), (1e300, "1e300"),
            (123456.789, "123456.789"), (Double.leastNonzeroMagnitude, "5e-324"), (1.0e-7, "1e-7"),
        ])
    func shortestReals(value: Double, text: String) throws {
        #expect(JSONValue.real(value).description == text)
        #expect(try JSONParser.parse(JSONValue.real(value).description) == .real(value))
    }

    @Test("control characters are escaped: a line never holds a raw newline")
    func escapes() {
        let text = JSONValue.string("a\nb\r\u{0}\t\"\\").description
        #expect(!text.utf8.contains(0x0A))
        #expect(text == #""a\nb\r\u0000\t\"\\""#)
    }

    @Test("DEL, C1 controls, separators and bidi controls are escaped too: no JSON line can act on a terminal")
    func actingCharacters() throws {
        let hostile = "a\u{7F}b\u{9B}2J\u{85}c\u{2028}\u{202E}dcba\u{2066}x\u{2069}·…–한"
        let value = JSONValue.object(JSONObject([("title", .string(hostile)), ("n", .integer(1))]))
        let text = value.description
        #expect(text == #"{"title":"a\u007Fb\u009B2J\u0085c\u2028\u202Edcba\u2066x\u2069·…–한","n":1}"#)
        #expect(try JSONParser.parse(text) == value, "exact: the same string read back")
        var quoted: [UInt8] = []
        JSONSerializer.appendQuoted(utf8: Array(hostile.utf8), to: &quoted)
        let expected = #""a\u007Fb\u009B2J\u0085c\u2028\u202Edcba\u2066x\u2069·…–한""#
        #expect(String(decoding: quoted, as: UTF8.self) == expected)
    }

    @Test("non-ASCII text is written as UTF-8, not escaped")
    func unicode() {
        #expect(JSONValue.string("한글 ▲").description == "\"한글 ▲\"")
    }

    @Test("large documents exceed the scratch buffer and still serialize exactly")
    func large() throws {
        let value = JSONValue.array((0..<5000).map { .string("item \($0)") })
        let text = value.description
        #expect(text.utf8.count > 4096)
        #expect(try JSONParser.parse(text) == value)
    }

    @Test("a line ends in exactly one newline")
    func line() {
        #expect(JSONSerializer.line(["a": 1]) == Array(#"{"a":1}"#.utf8) + [0x0A])
    }

    @Test("empty strings and keys survive")
    func empties() throws {
        let value: JSONValue = ["": ""]
        #expect(value.description == #"{"":""}"#)
        #expect(try JSONParser.parse(value.description) == value)
    }
}

@Suite("Quoting JSON text as a string")
struct QuotedTextTests {
    @Test(
        "appendQuoted escapes exactly as json_dumpb does",
        arguments: [
            #"{"a":"b\"c","d":[1,2.5,null]}"#, "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\r",
            "\u{01}\u{1F}\u{08}\u{0C}", "한글 ▲ 신작 🎬", "",
        ])
    func matchesJansson(_ text: String) {
        var quoted: [UInt8] = []
        JSONSerializer.appendQuoted(utf8: Array(text.utf8), to: &quoted)
        #expect(quoted == JSONSerializer.serialize(.string(text)))
    }
}
