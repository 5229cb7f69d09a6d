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
            try BoxOfficeDailyMethod(service: runtime.service),
            try BoxOfficeWeeklyMethod(service: runtime.service),
            try MovieDetailMethod(service: runtime.service),
            try MoviePosterMethod(service: runtime.service),
            try MovieSearchMethod(service: runtime.service),
        ]
        if configuration.diagnostics {
            methods.append(try DiagnosticsSleepMethod())
            methods.append(try DiagnosticsFailMethod())
        }
        return MethodRegistry(methods)
    }
}
