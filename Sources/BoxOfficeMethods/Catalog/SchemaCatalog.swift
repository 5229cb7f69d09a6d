package import JSONCore
package import JSONSchema

/// The method schemas from `Schemas/`, embedded at build time, parsed and compiled once.
package struct SchemaCatalog: Sendable {
    /// A schema that is missing, not JSON or not compilable: a build defect, reported at start-up.
    package struct LoadError: Error, CustomStringConvertible {
        package let file: String
        package let reason: String
        package var description: String { "\(file): \(reason)" }
    }

    /// The file names of every embedded schema, e.g. `ping.params.schema.json`.
    package static var fileNames: [String] {
        EmbeddedResources.files.keys.filter { $0.hasPrefix("Schemas/") }.map { String($0.dropFirst("Schemas/".count)) }
            .sorted()
    }

    /// The parsed document of `Schemas/<fileName>`.
    package static func document(_ fileName: String) throws(LoadError) -> JSONValue {
        guard let text = EmbeddedResources.files["Schemas/" + fileName] else {
            throw LoadError(file: fileName, reason: "not embedded (is it in Schemas/?)")
        }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw LoadError(file: fileName, reason: "not JSON: \(error)")
        }
    }

    /// How the worker compiles its schemas: `format` asserted (a `date` must be a real calendar date), and no
    /// references outside the embedded files.
    package static let options = SchemaOptions(assertFormats: true)

    /// The compiled schema in `Schemas/<fileName>`.
    package static func compiled(_ fileName: String) throws(LoadError) -> JSONSchema {
        let source = try document(fileName)
        do {
            return try JSONSchema(source, options: options)
        } catch {
            throw LoadError(file: fileName, reason: "does not compile: \(error)")
        }
    }

    /// The compiled params schema and the result schema document of `method`.
    package static func schemas(for method: String) throws(LoadError) -> (params: JSONSchema, result: JSONValue) {
        (try compiled(paramsFile(method)), try document(resultFile(method)))
    }

    /// `<method>.params.schema.json`
    package static func paramsFile(_ method: String) -> String { "\(method).params.schema.json" }

    /// `<method>.result.schema.json`
    package static func resultFile(_ method: String) -> String { "\(method).result.schema.json" }

    /// Whether `Schemas/<fileName>` is embedded.
    package static func isEmbedded(_ fileName: String) -> Bool {
        EmbeddedResources.files["Schemas/" + fileName] != nil
    }
}
