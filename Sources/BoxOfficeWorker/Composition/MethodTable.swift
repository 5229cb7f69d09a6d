import BoxOfficeCore
package import JSONRPC

/// Builds the registry: the one list of every method this worker answers.
package enum MethodTable {
    /// - Throws: ``SchemaCatalog/LoadError`` when a method's schema is missing or broken (a build defect).
    package static func registry(_ configuration: WorkerConfiguration, runtime: WorkerRuntime, startedAt: WorkerClock)
        throws -> MethodRegistry
    {
        var methods: [any RPCMethod] = [
            try PingMethod(),
            try WorkerStatusMethod(configuration: configuration, clock: startedAt, runtime: runtime),
            try DiscoverMethod(),
            try BoxOfficeMethod(.daily, runtime: runtime),
            try BoxOfficeMethod(.weekly, runtime: runtime),
            try MovieDetailMethod.make(runtime),
            try MoviePosterMethod.make(runtime),
            try MovieSearchMethod.make(runtime),
        ]
        if configuration.diagnostics {
            methods.append(try DiagnosticsSleepMethod())
            methods.append(try DiagnosticsFailMethod())
        }
        return MethodRegistry(methods)
    }
}
