import Foundation
import JSONSchema
import TestSupport
import Testing

@Suite("JSON-Schema-Test-Suite, draft 2020-12", .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
struct SchemaTestSuiteTests {
    static let required = SchemaTestSuite.files("")

    @Test("required tests pass, per file", arguments: required)
    func requiredFile(file: URL) {
        let (failures, total) = SchemaTestSuite.run(file, assertFormats: false)
        print("JSON-Schema-Test-Suite \(file.lastPathComponent): \(total - failures.count) of \(total) pass")
        for failure in failures {
            Issue.record("\(file.lastPathComponent): \(failure)")
        }
    }

    @Test("required tests: 1299 of 1299 in all")
    func requiredTotal() {
        var passed = 0
        var total = 0
        for file in Self.required {
            let (failures, count) = SchemaTestSuite.run(file, assertFormats: false)
            passed += count - failures.count
            total += count
        }
        print("JSON-Schema-Test-Suite draft2020-12 required: \(passed) of \(total) pass")
        #expect(total == 1299)
        #expect(passed == total)
    }

    @Test("optional tests run (formats asserted) and their pass count is printed")
    func optional() {
        var passed = 0
        var total = 0
        for file in SchemaTestSuite.files("optional") + SchemaTestSuite.files("optional/format") {
            let (failures, count) = SchemaTestSuite.run(file, assertFormats: file.path().contains("/format/"))
            if count == 0 {
                print("JSON-Schema-Test-Suite optional \(file.lastPathComponent): not run: \(failures.joined())")
                continue
            }
            print(
                "JSON-Schema-Test-Suite optional \(file.lastPathComponent): \(count - failures.count) of \(count) pass")
            passed += count - failures.count
            total += count
        }
        print("JSON-Schema-Test-Suite draft2020-12 optional: \(passed) of \(total) pass")
        #expect(total > 0)
    }
}
