package import BoxOfficeMethods
import BoxOfficeWorker
package import JSONRPC
import MCP
package import TestSupport

/// The worker as its flags make it, offline (the embedded fixtures), served in memory: the method table and the MCP
/// catalog the binary serves, without the binary.
///
/// Flags go through the same table the binary reads them with (``WorkerOptions/quickParse(_:)``), so a transcript
/// here runs with exactly the limits, order and methods a spawned worker given those flags would have. The
/// environment is empty: no key, no cache directory, so nothing is read from or written to disk.
package struct OfflineWorker: Sendable {
    package let configuration: WorkerConfiguration
    package let runtime: WorkerRuntime
    package let methods: MethodRegistry

    /// - Parameter arguments: the worker's plain flags (`--ordered`, `--diagnostics`, `--today 2026-11-21`, …).
    package init(_ arguments: [String] = []) throws {
        guard let options = WorkerOptions.quickParse(arguments) else {
            throw WorkerOptions.Invalid(description: "not plain worker flags: \(arguments)")
        }
        configuration = try options.configuration(environment: [:])
        runtime = try WorkerRuntime(configuration)
        methods = try WorkerMethods(configuration, runtime: runtime, startedAt: WorkerClock()).registry
    }

    /// A host on the worker's JSON-RPC face.
    package var jsonRPC: InMemoryHost {
        InMemoryHost(registry: methods, configuration: configuration.server)
    }

    /// A host on the worker's MCP face (`boxoffice-worker mcp`), a new session each time it is asked for.
    package var mcp: InMemoryHost {
        let session = MCPSession()
        var server = configuration.server
        server.rules = MCPServerMethods.rules(session)
        return InMemoryHost(
            registry: MCPServerMethods.registry(BoxOfficeMCP.catalog(methods, runtime: runtime), session: session),
            configuration: server)
    }
}
