import BoxOfficeCore
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
    let counters: UpstreamCounters

    init(configuration: WorkerConfiguration, clock: WorkerClock, counters: UpstreamCounters) throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
        self.configuration = configuration
        self.clock = clock
        self.counters = counters
    }

    func callImmediately(_ context: RequestContext) throws -> JSONValue {
        let requests = context.statistics
        let server = configuration.server
        return [
            "name": .string(WorkerIdentity.name),
            "version": .string(WorkerIdentity.version),
            "mode": .string(configuration.mode.rawValue),
            "pid": .int(ProcessInfo.processInfo.processIdentifier),
            "startedAt": .string(clock.startedAtText),
            "uptimeSeconds": .real((clock.uptimeSeconds * 1000).rounded() / 1000),
            "requests": [
                "lines": .int(requests.lines),
                "requests": .int(requests.requests),
                "notifications": .int(requests.notifications),
                "succeeded": .int(requests.succeeded),
                "failed": .int(requests.failed),
                "cancelled": .int(requests.cancelled),
                "parseErrors": .int(requests.parseErrors),
                "invalidRequests": .int(requests.invalidRequests),
                "inFlight": .int(requests.inFlight),
            ],
            "upstream": [
                "kobis": ["calls": .int(counters.kobisCalls), "baseURL": .string(configuration.kobis.baseURL), "keySet": .bool(configuration.kobis.key?.isEmpty == false)],
                "kakao": ["calls": .int(counters.kakaoCalls), "baseURL": .string(configuration.kakao.baseURL), "keySet": .bool(configuration.kakao.key?.isEmpty == false)],
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
