import Foundation
import JSONCore
import TestSupport
import Testing
import WorkerTestSupport

/// Every JSONTestSuite parsing file and every Jansson invalid input, fed to the worker's line handler as a line.
///
/// All files go through one worker (served in memory) in `--ordered` mode, each followed by a `ping` whose answer marks the end of
/// that file's answers: so each file's answers are known exactly, and every ping answered proves the worker kept
/// serving after that file.
@Suite(
    "External suites through the worker", .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
struct ExternalSuiteThroughWorkerTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// What must come back: -32700 for n_ and invalid files, an error but not -32700 for plain JSON that is no
        /// request (y_ files), anything for i_ files.
        let expectation: Expectation
        var description: String { name }
    }

    enum Expectation: Sendable {
        case parseError
        case notParseError
        case anyAnswer
        /// A blank line: ignored, never answered (protocol.md §1).
        case noAnswer
    }

    /// Files whose expectation differs from their prefix, each for a reason of the worker's contract.
    static let exceptions: [String: Expectation] = [
        // Duplicate keys are -32700 by protocol.md §2.
        "y_object_duplicated_key.json": .parseError,
        "y_object_duplicated_key_and_value.json": .parseError,
        // Jansson keys are C strings: "\u0000" in a key cannot be represented.
        "y_object_escaped_null_in_key.json": .parseError,
        // Valid under JSON_DECODE_ANY / JSON_ALLOW_NUL: a bare scalar, a \u0000 in a string value → -32600.
        "jansson:null": .notParseError,
        "jansson:null-escape-in-string": .notParseError,
        // Empty or white space only: a blank line, which the protocol ignores.
        "n_single_space.json": .noAnswer,
        "n_structure_no_data.json": .noAnswer,
        "jansson:empty": .noAnswer,
        // Valid JSON spread over several lines: newline framing makes each line a message of its own, and the
        // fragments are parse errors. Every fragment is still answered.
        "y_array_with_1_and_newline.json": .anyAnswer,
        "y_object_with_newlines.json": .anyAnswer,
    ]

    static func cases() -> [Case] {
        var cases: [Case] = []
        for file in SharedData.files(in: "testsuites/JSONTestSuite/test_parsing") {
            let name = file.lastPathComponent
            let byPrefix: Expectation =
                switch name.prefix(2) {
                case "n_": .parseError
                case "y_": .notParseError
                default: .anyAnswer
                }
            let bytes = (try? [UInt8](Data(contentsOf: file))) ?? []
            cases.append(Case(name: name, bytes: bytes, expectation: exceptions[name] ?? byPrefix))
        }
        for folder in SharedData.folders(in: "testsuites/jansson-suites/invalid")
            + SharedData.folders(in: "testsuites/jansson-suites/invalid-unicode")
        {
            let name = "jansson:" + folder.lastPathComponent
            let bytes = (try? [UInt8](Data(contentsOf: folder.appending(path: "input")))) ?? []
            cases.append(Case(name: name, bytes: bytes, expectation: exceptions[name] ?? .parseError))
        }
        return cases
    }

    @Test("every file is answered as its kind requires, and the worker keeps serving")
    func allFiles() async throws {
        let cases = Self.cases()
        #expect(cases.count > 350)
        var input: [UInt8] = []
        for (index, item) in cases.enumerated() {
            var bytes = item.bytes
            while bytes.last == 0x0A { bytes.removeLast() }
            input += bytes + [0x0A] + Array((request(.string("end-\(index)"), "ping") + "\n").utf8)
        }
        let lines = try await OfflineWorker(["--ordered"]).jsonRPC.transcript(bytes: input)
        var answers: [JSONValue] = []
        var next = 0
        for line in lines {
            let value = try? JSONParser.parse(line)
            guard let value else {
                Issue.record("stdout line is not JSON: \(line)")
                continue
            }
            if value["id"] == .string("end-\(next)") {
                check(cases[next], answers)
                answers = []
                next += 1
            } else {
                answers.append(value)
            }
        }
        #expect(
            next == cases.count, "the worker stopped serving after \(next < cases.count ? cases[next].name : "the end")"
        )
    }

    func check(_ item: Case, _ answers: [JSONValue]) {
        let codes = answers.map { answer -> Int64? in
            answer[at: "/error/code"]?.integerValue ?? answer[at: "/0/error/code"]?.integerValue
        }
        switch item.expectation {
        case .parseError:
            #expect(codes.contains(-32700), "\(item.name) → \(answers)")
        case .notParseError:
            #expect(!answers.isEmpty && !codes.contains(-32700), "\(item.name) → \(answers)")
        case .anyAnswer:
            break
        case .noAnswer:
            #expect(answers.isEmpty, "\(item.name) → \(answers)")
        }
    }
}
