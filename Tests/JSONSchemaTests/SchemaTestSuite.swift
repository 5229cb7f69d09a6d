import Foundation
import JSONCore
import TestSupport

@testable import JSONSchema

/// The official JSON-Schema-Test-Suite (draft 2020-12) from ../shared, with remote references served from its
/// `remotes/` folder and the meta-schemas from `../shared/testsuites/metaschemas/`, through a local URL map.
enum SchemaTestSuite {
    static let root = SharedData.directory.appending(path: "testsuites/JSON-Schema-Test-Suite")
    static let metaschemas = SharedData.directory.appending(path: "testsuites/metaschemas")

    /// Maps the suite's URLs to local files; nothing is fetched.
    static let resolver: @Sendable (String) -> JSONValue? = { uri in
        let file: URL
        if uri.hasPrefix("http://localhost:1234/") {
            file = root.appending(path: "remotes/" + uri.dropFirst("http://localhost:1234/".count))
        } else if uri.hasPrefix("https://json-schema.org/draft/2020-12/") {
            file = metaschemas.appending(
                path: "draft2020-12/" + uri.dropFirst("https://json-schema.org/draft/2020-12/".count) + ".json")
        } else {
            return nil
        }
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONParser.parse([UInt8](data))
    }

    struct Case {
        let group: String
        let description: String
        let schema: JSONValue
        let data: JSONValue
        let valid: Bool
    }

    static func files(_ folder: String) -> [URL] {
        SharedData.files(in: "testsuites/JSON-Schema-Test-Suite/tests/draft2020-12/" + folder).filter {
            $0.pathExtension == "json"
        }
    }

    /// The cases of one file; `nil` when Jansson cannot read it (integers beyond 64 bits in optional/bignum.json).
    static func cases(in file: URL) -> [Case]? {
        guard let data = try? Data(contentsOf: file), let groups = try? JSONParser.parse([UInt8](data)).arrayValue
        else { return nil }
        return groups.flatMap { group in
            (group["tests"]?.arrayValue ?? []).map { test in
                Case(
                    group: group["description"]?.stringValue ?? "?",
                    description: test["description"]?.stringValue ?? "?",
                    schema: group["schema"] ?? .bool(true), data: test["data"] ?? .null,
                    valid: test["valid"] == .bool(true)
                )
            }
        }
    }

    /// Runs one file: the failures, described, and the number of cases.
    static func run(_ file: URL, assertFormats: Bool) -> (failures: [String], total: Int) {
        guard let cases = cases(in: file) else {
            return (["\(file.lastPathComponent): Jansson cannot read this file"], 0)
        }
        var failures: [String] = []
        var compiled: [String: Result<JSONSchema, SchemaCompilationError>] = [:]
        for item in cases {
            let key = item.schema.description
            let schema =
                compiled[key]
                ?? Result { () throws(SchemaCompilationError) in
                    try JSONSchema(
                        item.schema, options: SchemaOptions(assertFormats: assertFormats, resolver: resolver))
                }
            compiled[key] = schema
            switch schema {
            case .failure(let error):
                failures.append("\(item.group) / \(item.description): schema does not compile: \(error)")
            case .success(let schema):
                let valid = schema.isValid(item.data)
                let errors = schema.validate(item.data)
                if valid != item.valid {
                    failures.append("\(item.group) / \(item.description): expected \(item.valid ? "valid" : "invalid")")
                } else if schema.isValidByEvaluation(item.data) != valid {
                    failures.append("\(item.group) / \(item.description): the fast path and the evaluator disagree")
                } else if errors.isEmpty != valid {
                    failures.append("\(item.group) / \(item.description): validate() and isValid() disagree: \(errors)")
                }
            }
        }
        return (failures, cases.count)
    }
}
