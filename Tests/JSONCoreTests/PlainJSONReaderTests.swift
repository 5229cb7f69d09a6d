import Foundation
import JSONCore
import TestSupport
import Testing

/// ``JSONParser/parseBody(_:)`` against Jansson's `json_loadb` with the worker's flags (``JSONParser/parse(_:)``):
/// the same value, member order included, or the same error, whatever the text.
@Suite("JSONParser.parseBody: the fast path gives Jansson's value or Jansson's error")
struct PlainJSONReaderTests {
    /// Equal as values and as text (the text keeps member order and tells `1` from `1.0`).
    static func agrees(_ bytes: [UInt8], _ comment: Comment) {
        let jansson = Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(bytes) }
        let body = Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parseBody(bytes) }
        switch (jansson, body) {
        case (.success(let expected), .success(let value)):
            #expect(value == expected, comment)
            #expect(JSONSerializer.serialize(value) == JSONSerializer.serialize(expected), comment)
        case (.failure(let expected), .failure(let error)):
            #expect(error.code == expected.code && error.position == expected.position, comment)
        default:
            Issue.record("parseBody and Jansson disagree: \(jansson) against \(body); \(comment)")
        }
    }

    static let recordedBodies: [URL] = ["Fixtures/upstream/kobis", "Fixtures/upstream/kakao"].flatMap { folder in
        let url = SharedData.repositoryRoot.appending(path: folder)
        return ((try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    @Test("every recorded body the project keeps")
    func recorded() throws {
        #expect(Self.recordedBodies.count > 20)
        for file in Self.recordedBodies {
            Self.agrees(try [UInt8](Data(contentsOf: file)), "\(file.lastPathComponent)")
        }
    }

    @Test("keys met again in a body: the same key in every object, near misses, escaped twins, duplicates, many keys")
    func keysMetAgain() {
        let texts = [
            #"[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6}]"#, #"[{"ab":1},{"ac":2},{"ab":3},{"":4},{"":5}]"#,
            #"[{"a":1},{"\u0061":2},{"a":3,"\u0061":4}]"#, #"[{"a":1},{"a":2,"a":3}]"#,
            #"[{"한글":1},{"한글":2,"한긁":3}]"#, #"[{"k\"q":1},{"k\"q":2}]"#, #"[{"a":1},{"a\u0000":2}]"#,
            "[" + (0..<200).map { #"{"key\#($0 % 70)":\#($0),"key\#(($0 + 1) % 70)":0}"# }.joined(separator: ",") + "]",
        ]
        for text in texts { Self.agrees(Array(text.utf8), "\(text.prefix(60).debugDescription)") }
        // A key's bytes invalid the second time only, and the first time only.
        let raw: [[UInt8]] = [
            Array(#"[{"ab":1},{"a"#.utf8) + [0xC3, 0x28] + Array(#"":2}]"#.utf8),
            Array(#"[{"a"#.utf8) + [0xC3, 0x28] + Array(#"":1},{"ab":2}]"#.utf8),
        ]
        for bytes in raw { Self.agrees(bytes, "\(bytes)") }
    }

    @Test("texts at the edges: numbers, escapes, surrogates, NUL, duplicates, depth, white space, scalars")
    func edges() {
        let texts = [
            "0", "-0", "-0.0", "1.5e3", "1E-7", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809", "1e999", "-1e999", "1e-400", "0.1", "01", "1.", ".5", "+1", "-",
            "2.2250738585072014e-308",
            #""a\"b\\c\/d\b\f\n\r\t""#, #""\u0041\u00e9\uAC00""#, #""\ud83c\udfac""#, #""\ud83c""#, #""\udfac""#,
            #""\u0000""#, #"{"\u0000":1}"#, #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"a":{"a":1},"b":[{"a":1}]}"#,
            "[1,2,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "[]", "{}", " [ ] ", "\t{\r\n}\n", "true", "false", "null",
            "nul", "[true,false,null]", "\"\u{7F}\u{80}\"", "\"tab\there\"", "\"한글 ▲ 신작\"", "", " ", "[1]x", "[1] 2",
            String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
            "[" + String(repeating: "1,", count: 1000) + "1]", "{\"k\":\"\(String(repeating: "가", count: 5000))\"}",
        ]
        for text in texts { Self.agrees(Array(text.utf8), "\(text.prefix(60).debugDescription)") }
        // Bytes no Swift string literal can hold: invalid UTF-8, overlong forms, encoded surrogates, raw NUL.
        let raw: [[UInt8]] = [
            [0x22, 0xC3, 0x28, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x61, 0x00, 0x22], [0x5B, 0x31, 0x00, 0x5D],
            [0xEF, 0xBB, 0xBF, 0x31],
        ]
        for bytes in raw { Self.agrees(bytes, "\(bytes)") }
    }

    @Test("the UTF-8 check agrees with the standard library's on every one- and two-byte text, and on three-byte leads")
    func utf8() {
        var texts: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for first in 0x80...0xFF { for second in 0...255 { texts.append([UInt8(first), UInt8(second)]) } }
        for first in 0xE0...0xF4 {
            for second in stride(from: 0x70, through: 0xC0, by: 8) {
                texts.append([UInt8(first), UInt8(second), 0x80])
                texts.append([UInt8(first), UInt8(second), 0x80, 0x80])
            }
        }
        for text in texts {
            let expected = String(validating: text, as: UTF8.self) != nil
            #expect(text.withUnsafeBufferPointer(JSONParser.isValidUTF8) == expected, "\(text)")
        }
    }

    @Test("thousands of mutations of the recorded bodies: a byte changed, dropped or doubled, the text cut short")
    func mutations() throws {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = Array(#"{}[]",:\-+.eE0119u"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xFF]
        for file in Self.recordedBodies.prefix(12) {
            let body = try [UInt8](Data(contentsOf: file))
            guard !body.isEmpty else { continue }
            for _ in 0..<300 {
                var mutated = body
                let at = Int.random(in: 0..<mutated.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: mutated[at] = interesting.randomElement(using: &generator)!
                case 1: mutated.remove(at: at)
                case 2: mutated.insert(mutated[at], at: at)
                default: mutated = Array(mutated[..<at])
                }
                Self.agrees(mutated, "\(file.lastPathComponent) mutated at \(at)")
            }
        }
    }
}

@Suite(
    "JSONParser.parseBody over the external suites",
    .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
struct PlainJSONReaderSuiteTests {
    @Test("JSONTestSuite: every file, y_, n_ and i_, as Jansson reads it")
    func jsonTestSuite() throws {
        let files = SharedData.files(in: "testsuites/JSONTestSuite/test_parsing")
        #expect(files.count > 300)
        for file in files {
            PlainJSONReaderTests.agrees(try [UInt8](Data(contentsOf: file)), "\(file.lastPathComponent)")
        }
    }

    @Test("the recorded KOBIS bodies in ../shared")
    func sharedBodies() throws {
        let files = SharedData.files(in: "data/kobis").filter { $0.pathExtension == "json" }
        #expect(!files.isEmpty)
        for file in files {
            PlainJSONReaderTests.agrees(try [UInt8](Data(contentsOf: file)), "\(file.lastPathComponent)")
        }
    }
}
