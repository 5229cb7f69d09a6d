import JSONCore
import JSONSchema

/// A method of the protocol: its name, its schemas and its handler, in one type.
///
/// - Important: A handler is called at most once per request and its request is answered exactly once: with its
///   result, with the ``RPCError`` it throws, with `-32603` for any other error, or with `-32800` when cancelled.
///   Handlers must honour Swift task cancellation.
public protocol RPCMethod: Sendable {
    /// The wire name, e.g. `boxoffice.daily`.
    var name: String { get }
    /// One line for `rpc.discover`.
    var summary: String { get }
    /// Validates params (without `_meta`) before the handler runs.
    var paramsSchema: JSONSchema { get }
    /// The result's schema, as published in `rpc.discover`.
    var resultSchema: JSONValue { get }
    func call(_ context: RequestContext) async throws -> JSONValue
    /// What the server calls: by default ``call(_:)``'s value. A method that keeps serialized results answers
    /// with their text here instead.
    func respond(_ context: RequestContext) async throws -> RPCResult
    /// The answer when it is already at hand (in memory), given at once on the reading thread with no task; nil
    /// to run ``respond(_:)`` as usual. Must not block or wait: reading stops while it runs.
    func respondAtOnce(_ context: RequestContext) -> RPCResult?
    /// The method itself when it answers immediately, else nil. A requirement rather than an `as?` cast: a cast
    /// to a protocol scans every conformance record of the binary at run time, a measurable part of cold start.
    var immediate: (any ImmediateRPCMethod)? { get }
}

extension RPCMethod {
    public var immediate: (any ImmediateRPCMethod)? { nil }

    public func respond(_ context: RequestContext) async throws -> RPCResult {
        .value(try await call(context))
    }

    public func respondAtOnce(_ context: RequestContext) -> RPCResult? { nil }
}

/// A method that answers at once without I/O (microseconds): it runs on the reader thread, with no task.
///
/// - Important: Never block or wait here; reading stops while it runs.
public protocol ImmediateRPCMethod: RPCMethod {
    func callImmediately(_ context: RequestContext) throws -> JSONValue
}

extension ImmediateRPCMethod {
    public func call(_ context: RequestContext) async throws -> JSONValue {
        try callImmediately(context)
    }

    public var immediate: (any ImmediateRPCMethod)? { self }
}
