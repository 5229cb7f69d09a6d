import JSONRPC

/// Builds the registry: the one list of every method this worker answers.
public enum MethodTable {
    /// - Throws: ``SchemaCatalog/LoadError`` when a method's schema is missing or broken (a build defect).
    public static func registry(_ configuration: WorkerConfiguration, startedAt: WorkerClock) throws -> MethodRegistry {
        var methods: [any RPCMethod] = [
            try PingMethod(),
            try WorkerStatusMethod(configuration: configuration, clock: startedAt),
            try DiscoverMethod(),
        ]
        if configuration.diagnostics {
            methods.append(try DiagnosticsSleepMethod())
            methods.append(try DiagnosticsFailMethod())
        }
        return MethodRegistry(methods)
    }
}
