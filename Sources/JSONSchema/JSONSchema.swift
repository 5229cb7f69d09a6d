import JSONCore

/// A compiled JSON Schema: compile once, validate from any task.
///
/// This first version implements the keywords the worker's method params use today — `type`, `enum`, `const`,
/// `properties`, `required`, `additionalProperties`, `items`, numeric bounds, string and array lengths — and treats
/// annotation keywords (`title`, `description`, `examples`, `default`, `$comment`, `$id`, `$schema`) as annotations.
/// Any other keyword is a compilation error, never silently ignored, so a schema is never misread.
public struct JSONSchema: Sendable {
    let root: Node
    /// The schema document as written, for publishing (e.g. in `rpc.discover`).
    public let document: JSONValue

    public init(_ document: JSONValue) throws(SchemaCompilationError) {
        self.document = document
        root = try Node.compile(document, at: .root)
    }

    /// Every failed assertion for `instance`; empty when it is valid.
    public func validate(_ instance: JSONValue) -> [ValidationError] {
        var errors: [ValidationError] = []
        root.validate(instance, at: .root, schemaPath: .root, into: &errors)
        return errors
    }

    public func isValid(_ instance: JSONValue) -> Bool {
        validate(instance).isEmpty
    }
}
