import Foundation
import TestSupport
import Testing

@testable import JSONCore

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

    @Test("acting characters are found wherever they fall in the eight-byte words the scan reads, near misses are not")
    func actingCharactersAnywhere() {
        var generator = SplitMix(seed: 20_261_129)
        let palette: [Unicode.Scalar] = [
            "a", "~", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}", "\u{A0}", "\u{C2}", "\u{E2}", "\u{2027}", "\u{2028}",
            "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "▲", "한", "é",
        ]
        func acting(_ scalar: Unicode.Scalar) -> Bool {
            [0x7F...0x7F, 0x80...0x9F, 0x2028...0x202E, 0x2066...0x2069].contains { $0.contains(scalar.value) }
        }
        for _ in 0..<3000 {
            let scalars = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                palette.randomElement(using: &generator)!
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            let body = scalars.map { scalar in
                guard acting(scalar) else { return String(scalar) }
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            #expect(JSONValue.string(text).description == "\"" + body.joined() + "\"", "\(scalars)")
        }
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

/// The writer (straight from the Swift tree) against `json_dumpb` of the same value through a Jansson tree: the text
/// must be the same, byte for byte, whatever the value holds.
@Suite("JSONSerializer: the direct writer gives json_dumpb's text")
struct DirectWriterTests {
    @Test(
        "reals, alone and beside others (one precision for all, as JSON_REAL_PRECISION)",
        arguments: [
            [0.1], [1e20], [1e16], [1e15], [1e-5], [-0.0], [0.0], [123456789012345678.0], [5e-324],
            [Double.greatestFiniteMagnitude], [-Double.greatestFiniteMagnitude], [Double.nan], [Double.infinity],
            [0.1, 3.14159], [40.2, 1.0 / 3.0], [2.5, 1e-7, 1e300], [100.0, 0.000123], [1e21, 12.5],
            [9007199254740993.0],
            [0.30000000000000004, 0.1], [1.7976931348623157e308, 2.2250738585072014e-308],
        ] as [[Double]])
    func reals(_ reals: [Double]) {
        let value = JSONValue.array(
            reals.map { .real($0) } + [.integer(-7), .object(JSONObject([("r", .real(reals[0]))]))])
        #expect(JSONSerializer.serialize(value) == JSONSerializer.janssonText(value))
        let alone = JSONValue.real(reals[0])
        #expect(JSONSerializer.serialize(alone) == JSONSerializer.janssonText(alone))
    }

    @Test("a real from its shortest digits is snprintf's %g text at every precision, or left to snprintf")
    func shortestDigitsAgreeWithSnprintf() {
        var generator = SplitMix(seed: 20_261_129)
        var reals: [Double] = [
            1, 10, 100, 1e15, 1e16, 1e-4, 1e-5, 0.0001234, 123456, 1234567, 999999.5, 0.1, 0.30000000000000004,
            1e-300, 1e300, 9.999999999999999e299, 1.0000000000000001e-300, 5e-324, 2.2250738585072014e-308,
            Double.greatestFiniteMagnitude, 9007199254740993, 4.35, 12.3, 40.2, 1.0 / 3.0, 2.5e-7, 123.456e10,
        ]
        // Decimals of 1 to 17 digits at every exponent (what answers hold: rates, shares), and raw bit patterns.
        for _ in 0..<4000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let significand = UInt64.random(in: 0..<UInt64(pow(10, Double(digits))), using: &generator)
            let exponent = Int.random(in: -320...310, using: &generator)
            if let real = Double("\(significand)e\(exponent)"), real.isFinite { reals.append(real) }
            let bits = Double(bitPattern: generator.next())
            if bits.isFinite { reals.append(bits) }
        }
        var mismatches: [String] = []
        for real in reals + reals.map(-) {
            // The precision the writer asks of each real, read with its digits, is the dump's rule.
            if RealDigits(real).significant != JSONValue.significantDigits(real), mismatches.count < 10 {
                mismatches.append("\(real): \(RealDigits(real).significant) significant digits")
            }
            for precision in 1...17 {
                var fast: [UInt8] = []
                var reference: [UInt8] = []
                JSONSerializer.appendReal(real, precision: precision, to: &fast)
                JSONSerializer.appendFormattedReal(real, precision: precision, to: &reference)
                if fast != reference, mismatches.count < 10 {
                    mismatches.append("\(real) at %.\(precision)g: \(String(decoding: fast, as: UTF8.self))")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("strings and keys: every control, quotes, backslashes, NUL, acting characters, non-ASCII, empties")
    func strings() {
        let texts = [
            "", "plain", "quote \" backslash \\ slash /", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}", "\u{7F}",
            "\u{80}\u{9B}[2J", "\u{2028}\u{2029}\u{202A}\u{202E}\u{2066}\u{2069}", "한글 ▲ 신작 🎬", "a\u{0}b",
        ]
        for text in texts {
            let value = JSONValue.object(JSONObject([(text, .string(text)), ("k", .array([.string(text), .null]))]))
            #expect(JSONSerializer.serialize(value) == JSONSerializer.janssonText(value), "\(text.debugDescription)")
        }
    }

    @Test("integers at the edges, booleans, null, empty and nested containers, members in their order")
    func shapes() {
        let value: JSONValue = [
            "min": .integer(.min), "max": .integer(.max), "zero": 0, "t": true, "f": false, "n": nil,
            "empty": [:], "list": [], "nested": [[[["deep": [1, [2, [3]]]]]]], "z": "last", "a": "after z",
        ]
        #expect(JSONSerializer.serialize(value) == JSONSerializer.janssonText(value))
    }

    @Test("every recorded upstream body the project keeps, parsed and written again")
    func recordedBodies() throws {
        let folders = ["Fixtures/upstream/kobis", "Fixtures/upstream/kakao"].map {
            SharedData.repositoryRoot.appending(path: $0)
        }
        var checked = 0
        for folder in folders {
            for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            where file.pathExtension == "json" {
                let value = try JSONParser.parse([UInt8](Data(contentsOf: file)))
                #expect(
                    JSONSerializer.serialize(value) == JSONSerializer.janssonText(value), "\(file.lastPathComponent)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }
}
