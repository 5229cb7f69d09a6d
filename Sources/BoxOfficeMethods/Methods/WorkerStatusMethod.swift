import BoxOfficeCore
import FoundationEssentials
import Glibc
package import JSONCore
package import JSONRPC
import JSONSchema

/// `worker.status`: name, version, mode, uptime, request counters, upstream counters, the KOBIS quota, the cache
/// and limits.
package struct WorkerStatusMethod: TypedMethod {
    package static let methodName = "worker.status"
    package let summary = "What the worker is, its mode, uptime, request counters and limits."
    package let schemas: MethodSchemas
    package let configuration: WorkerConfiguration
    package let clock: WorkerClock
    package let runtime: WorkerRuntime

    package init(configuration: WorkerConfiguration, clock: WorkerClock, runtime: WorkerRuntime) throws(SchemaCatalog
        .LoadError)
    {
        schemas = try MethodSchemas(for: Self.methodName)
        self.configuration = configuration
        self.clock = clock
        self.runtime = runtime
    }

    /// At once offline; live, the work reads the shared KOBIS count (at most 50 ms, else the figures this worker
    /// knows) and asks the store whether it answers, so the responder thread never waits for a database.
    package func start(_ input: NoInput, in context: RequestContext) -> Reply<JSONValue> {
        guard let quota = runtime.quota else { return .ready(answer(context, quota: nil, store: nil)) }
        let store = runtime.store
        return .work { [self] in
            async let health = store?.health()
            let status = await quota.status()
            return answer(context, quota: status, store: await health)
        }
    }

    package func result(_ status: JSONValue) -> RPCResult {
        .value(status)
    }

    private func answer(_ context: RequestContext, quota status: QuotaGuard.Status?, store health: StoreHealth?)
        -> JSONValue
    {
        let requests = context.statistics
        let server = configuration.server
        let counters = runtime.counters
        let cache = runtime.cache.statistics
        let quota: JSONValue =
            status.map { status in
                [
                    "limit": .int(status.limit), "used": .int(status.used), "remaining": .int(status.remaining),
                    "day": .string(status.day.description), "resetsAt": .string(status.resetsAt),
                    "counting": .string(status.countingInProcess ? "process" : "shared"),
                ]
            } ?? .null
        return [
            "name": .string(WorkerIdentity.name),
            "version": .string(WorkerIdentity.version),
            "commit": .string(WorkerIdentity.commit),
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
                "kobis": [
                    "calls": .int(counters.kobisCalls), "baseURL": .string(configuration.kobis.baseURL),
                    "keySet": .bool(configuration.kobis.key?.isEmpty == false),
                ],
                "kakao": [
                    "calls": .int(counters.kakaoCalls), "baseURL": .string(configuration.kakao.baseURL),
                    "keySet": .bool(configuration.kakao.key?.isEmpty == false),
                ],
            ],
            "quota": quota,
            "store": storeStatus(health),
            "cache": [
                "enabled": .bool(runtime.store != nil),
                "path": runtime.store != nil ? configuration.cacheDirectory.map { .string($0) } ?? .null : .null,
                "hits": .int(cache.hits),
                "misses": .int(cache.misses),
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

    /// The store's kind, redacted location, whether it answers and its schema version; null without one.
    private func storeStatus(_ health: StoreHealth?) -> JSONValue {
        guard let description = runtime.store?.description, let health else { return .null }
        return [
            "kind": .string(description.kind.rawValue),
            "location": .string(description.location),
            "connected": .bool(health.connected),
            "schemaVersion": health.schemaVersion.map { .int($0) } ?? .null,
        ]
    }
}
