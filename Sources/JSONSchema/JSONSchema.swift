package import JSONCore

/// A JSON Schema (draft 2020-12), compiled once; validation is reentrant and safe from any number of tasks.
///
/// Implements the core, applicator, unevaluated and validation vocabularies — `$id`, `$anchor`, `$ref`,
/// `$dynamicRef`/`$dynamicAnchor`, `$defs`, `$vocabulary` of a custom meta-schema — and `format` as an annotation,
/// or as an assertion for the formats ``FormatChecker`` knows when ``SchemaOptions/assertFormats`` is set.
/// A `$schema` naming another draft is a compile error, never silently misread. Unknown keywords are annotations.
///
/// Why our own: no Swift package in reach validates draft 2020-12 over Jansson values (the ones that exist work on
/// `Codable` or Foundation types, and miss `$dynamicRef` and the unevaluated vocabulary); this one passes all
/// 1,299 required tests of JSON-Schema-Test-Suite and is compiled for a fast path on valid instances.
package struct JSONSchema: Sendable {
    /// The schema document as written, for publishing (e.g. in `rpc.discover`).
    package let document: JSONValue
    let graph: CompiledGraph
    /// The boolean fast path, for graphs that need no annotations and no dynamic scope, and cannot loop in place.
    let fast: FastValidator?

    package init(_ document: JSONValue, options: SchemaOptions = SchemaOptions()) throws(SchemaCompilationError) {
        self.document = document
        let compiler = SchemaCompiler(options: options)
        let root = try compiler.compileRoot(document)
        graph = CompiledGraph(
            nodes: compiler.nodes, root: root, dynamicAnchors: compiler.dynamicAnchorNodes,
            tracksAnnotations: compiler.usesUnevaluated,
            assertFormats: options.assertFormats || compiler.resources.contains { $0.vocabularies.formatAssertion },
            usesDynamicScope: compiler.usesDynamicScope
        )
        let general = graph.tracksAnnotations || graph.usesDynamicScope || graph.loopsInPlace()
        fast = general ? nil : FastValidator(graph: graph)
    }

    /// Every failed assertion for `instance`, with locations; empty when it is valid.
    ///
    /// A valid instance costs one fast pass; only an invalid one is walked again to collect its errors.
    package func validate(_ instance: JSONValue) -> [ValidationError] {
        if isValid(instance) { return [] }
        var evaluation = Evaluation(graph: graph, collecting: true)
        var annotations = Annotations()
        _ = evaluation.validate(graph.root, instance, into: &annotations)
        return evaluation.errors
    }

    package func isValid(_ instance: JSONValue) -> Bool {
        if let fast { return fast.isValid(instance) }
        return isValidByEvaluation(instance)
    }

    /// The general evaluator's verdict (the suite test checks that both paths agree).
    func isValidByEvaluation(_ instance: JSONValue) -> Bool {
        var evaluation = Evaluation(graph: graph, collecting: false)
        var annotations = Annotations()
        return evaluation.validate(graph.root, instance, into: &annotations)
    }
}
