package import JSONCore
package import JSONSchema
import NIOConcurrencyHelpers

/// A method's wire name, its params schema (compiled) and its result schema document, each loaded on first use.
///
/// Why on first use: compiling every schema at start was about a tenth of the worker's cold start, and most
/// sessions call two or three methods. Start-up still checks that both files of every method are embedded; that
/// each one parses and compiles is checked by the tests (a build defect, not a run-time condition).
package final class MethodSchemas: Sendable {
    package let name: String
    private let loaded = NIOLockedValueBox<(params: JSONSchema?, result: JSONValue?)>((nil, nil))

    /// - Throws: when a schema file of `method` is not embedded.
    package init(for method: String) throws(SchemaCatalog.LoadError) {
        name = method
        for file in [SchemaCatalog.paramsFile(method), SchemaCatalog.resultFile(method)] {
            guard SchemaCatalog.isEmbedded(file) else {
                throw SchemaCatalog.LoadError(file: file, reason: "not embedded (is it in Schemas/?)")
            }
        }
    }

    /// The compiled params schema.
    package var params: JSONSchema {
        loadOnce(\.params) { () throws(SchemaCatalog.LoadError) in
            try SchemaCatalog.compiled(SchemaCatalog.paramsFile(name))
        }
    }

    /// The result schema document, as published.
    package var result: JSONValue {
        loadOnce(\.result) { () throws(SchemaCatalog.LoadError) in
            try SchemaCatalog.document(SchemaCatalog.resultFile(name))
        }
    }

    /// The value kept at `slot`, loaded by `load` on first use.
    private func loadOnce<T: Sendable>(
        _ slot: WritableKeyPath<(params: JSONSchema?, result: JSONValue?), T?>,
        _ load: () throws(SchemaCatalog.LoadError) -> T
    ) -> T {
        if let known = loaded.withLockedValue({ $0[keyPath: slot] }) { return known }
        let value: T
        do {
            value = try load()
        } catch {
            preconditionFailure("an embedded schema does not load (the tests compile every one): \(error)")
        }
        loaded.withLockedValue { $0[keyPath: slot] = value }
        return value
    }
}
