import Foundation
import JSONCore
import JSONRPC
import JSONSchema

/// `worker.status`: name, version, mode, uptime, request counters and limits.
struct WorkerStatusMethod: ImmediateRPCMethod, CatalogMethod {
    static let methodName = "worker.status"
    let summary = "What the worker is, its mode, uptime, request counters and limits."
    let schemas: MethodSchemas
    let configuration: WorkerConfiguration
    let clock: WorkerClock

    init(configuration: WorkerConfiguration, clock: WorkerClock) throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
        self.configuration = configuration
        self.clock = clock
    }

    func callImmediately(_ context: RequestContext) throws -> JSONValue {
        let counters = context.statistics
        let server = configuration.server
        return [
            "name": .string(WorkerIdentity.name),
            "version": .string(WorkerIdentity.version),
            "mode": .string(configuration.mode.rawValue),
            "pid": .int(ProcessInfo.processInfo.processIdentifier),
            "startedAt": .string(clock.startedAtText),
            "uptimeSeconds": .real((clock.uptimeSeconds * 1000).rounded() / 1000),
            "requests": [
                "lines": .int(counters.lines),
                "requests": .int(counters.requests),
                "notifications": .int(counters.notifications),
                "succeeded": .int(counters.succeeded),
                "failed": .int(counters.failed),
                "cancelled": .int(counters.cancelled),
                "parseErrors": .int(counters.parseErrors),
                "invalidRequests": .int(counters.invalidRequests),
                "inFlight": .int(counters.inFlight),
            ],
            "limits": [
                "maxInFlight": .int(server.maxInFlight),
                "ordered": .bool(server.ordered),
                "maxLineBytes": .int(server.maxLineBytes),
                "maxBatch": .int(server.maxBatch),
                "drainSeconds": .real(server.drainSeconds),
            ],
        ]
    }
}
