import JSONCore
import JSONSchema

/// A method's wire name, its compiled params schema and its result schema document.
struct MethodSchemas: Sendable {
    let name: String
    let params: JSONSchema
    let result: JSONValue

    init(for method: String) throws(SchemaCatalog.LoadError) {
        name = method
        (params, result) = try SchemaCatalog.schemas(for: method)
    }
}
