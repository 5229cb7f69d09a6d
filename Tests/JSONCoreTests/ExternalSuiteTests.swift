import Foundation
import JSONCore
import TestSupport
import Testing

/// JSONTestSuite and Jansson's own suites through JSONCore.
@Suite("External JSON suites", .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
struct ExternalSuiteTests {
    static let parsingFiles = SharedData.files(in: "testsuites/JSONTestSuite/test_parsing")

    /// y_ files the worker rejects: duplicate keys on purpose (JSON_REJECT_DUPLICATES, protocol.md §2), and a
    /// `\u0000` inside an object key, which Jansson cannot store (its keys are C strings).
    static let rejectedByDesign: Set<String> = [
        "y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json", "y_object_escaped_null_in_key.json",
    ]

    @Test("JSONTestSuite: y_ parse, n_ fail, i_ either way without a crash", arguments: parsingFiles)
    func parsing(file: URL) throws {
        let name = file.lastPathComponent
        let bytes = try [UInt8](Data(contentsOf: file))
        let result = Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(bytes) }
        switch name.prefix(2) {
        case "y_" where Self.rejectedByDesign.contains(name):
            #expect((try? result.get()) == nil, "\(name) has duplicate keys, which the worker rejects")
        case "y_":
            let value = try result.get()
            // What we write, we read back as the same value, and it is json_dumpb's text byte for byte.
            #expect(try JSONParser.parse(value.description) == value, "\(name) round-trip")
            #expect(JSONSerializer.serialize(value) == JSONSerializer.janssonText(value), "\(name) as json_dumpb")
        case "n_":
            #expect((try? result.get()) == nil, "\(name) must not parse")
        default:
            if let value = try? result.get() {
                #expect(try JSONParser.parse(value.description) == value, "\(name) round-trip")
                #expect(JSONSerializer.serialize(value) == JSONSerializer.janssonText(value), "\(name) as json_dumpb")
            }
        }
    }

    static let validFolders = SharedData.folders(in: "testsuites/jansson-suites/valid")

    @Test("Jansson valid suite: input and Jansson's expected output are the same value", arguments: validFolders)
    func janssonValid(folder: URL) throws {
        let input = try JSONParser.parse([UInt8](Data(contentsOf: folder.appending(path: "input"))))
        let output = try JSONParser.parse([UInt8](Data(contentsOf: folder.appending(path: "output"))))
        #expect(input == output)
        #expect(try JSONParser.parse(input.description) == input)
        #expect(JSONSerializer.serialize(input) == JSONSerializer.janssonText(input))
    }

    static let invalidFolders =
        SharedData.folders(in: "testsuites/jansson-suites/invalid")
        + SharedData.folders(in: "testsuites/jansson-suites/invalid-unicode")

    /// Inputs of Jansson's invalid suite that are valid under the worker's flags: JSON_DECODE_ANY accepts a bare
    /// scalar, JSON_ALLOW_NUL accepts `\u0000` in a string. The protocol answers these with -32600 instead.
    static let validUnderWorkerFlags: Set<String> = ["null", "null-escape-in-string"]

    @Test("Jansson invalid suites fail, at Jansson's expected position", arguments: invalidFolders)
    func janssonInvalid(folder: URL) throws {
        let name = folder.lastPathComponent
        let input = try [UInt8](Data(contentsOf: folder.appending(path: "input")))
        do {
            let value = try JSONParser.parse(input)
            #expect(Self.validUnderWorkerFlags.contains(name), "\(name) parsed as \(value)")
        } catch {
            // Jansson's suite keeps one expectation, or one per way of feeding it ("normal" is the whole buffer).
            let plain = folder.appending(path: "error")
            let errorFile =
                FileManager.default.fileExists(atPath: plain.path()) ? plain : folder.appending(path: "error.normal")
            let expected = try String(contentsOf: errorFile, encoding: .utf8)
            let numbers = expected.split(separator: "\n")[0].split(separator: " ").compactMap { Int($0) }
            // The message can differ under JSON_DECODE_ANY ("'[' or '{' expected" does not apply); the position
            // of the error does not.
            // A raw NUL is caught before Jansson (JSONParser's own check), at the NUL itself.
            let samePosition = numbers == [error.line, error.column, error.position]
            #expect(samePosition || error.code == .nullCharacter, "\(name): \(error)")
        }
    }
}
