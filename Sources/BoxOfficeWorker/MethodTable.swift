import BoxOfficeCore
import JSONRPC

/// Builds the registry: the one list of every method this worker answers.
public enum MethodTable {
    /// - Throws: ``SchemaCatalog/LoadError`` when a method's schema is missing or broken (a build defect).
    public static func registry(_ configuration: WorkerConfiguration, runtime: WorkerRuntime, startedAt: WorkerClock) throws -> MethodRegistry {
        var methods: [any RPCMethod] = [
            try PingMethod(),
            try WorkerStatusMethod(configuration: configuration, clock: startedAt, counters: runtime.counters),
            try DiscoverMethod(),
            try BoxOfficeDailyMethod.make(runtime.service),
            try BoxOfficeWeeklyMethod.make(runtime.service),
            try MovieDetailMethod.make(runtime.service),
            try MoviePosterMethod.make(runtime.service),
            try MovieSearchMethod.make(runtime.service),
        ]
        if configuration.diagnostics {
            methods.append(try DiagnosticsSleepMethod())
            methods.append(try DiagnosticsFailMethod())
        }
        return MethodRegistry(methods)
    }
}
