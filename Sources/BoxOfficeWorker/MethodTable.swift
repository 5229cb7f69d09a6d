import BoxOfficeCore
import JSONRPC

/// Builds the registry: the one list of every method this worker answers.
public enum MethodTable {
    /// - Throws: ``SchemaCatalog/LoadError`` when a method's schema is missing or broken (a build defect).
    public static func registry(_ configuration: WorkerConfiguration, runtime: WorkerRuntime, startedAt: WorkerClock) throws -> MethodRegistry {
        var methods: [any RPCMethod] = [
            try PingMethod(),
            try WorkerStatusMethod(configuration: configuration, clock: startedAt, runtime: runtime),
            try DiscoverMethod(),
            try BoxOfficeDailyMethod.make(runtime),
            try BoxOfficeWeeklyMethod.make(runtime),
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
