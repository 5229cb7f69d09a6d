import Glibc

/// Spends the quota on every KOBIS call that reaches it (placed behind the cache and the coalescer, so only real
/// upstream calls count). The spend is written while the call is made, and the answer waits for both: a worker
/// killed after answering has recorded every call it made.
package struct QuotaFetcher: Fetcher {
    private let inner: any Fetcher
    private let quota: QuotaGuard

    package init(_ inner: any Fetcher, quota: QuotaGuard) {
        self.inner = inner
        self.quota = quota
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        guard call.service == .kobis, let spend = try await quota.take() else { return try await inner.fetch(call) }
        // The spend's write started in take(): waiting for it after the call overlaps the two all the same, without
        // a child task whose only job was to wait (one hand-off less per KOBIS call).
        let result: Result<Fetched, BoxOfficeError>
        do {
            result = .success(try Self.quotaFault(in: try await inner.fetch(call)))
        } catch {
            result = .failure(quota.dated(error))
        }
        await quota.committed(spend)
        return try result.get()
    }

    /// KOBIS says a key's quota is used up as a fault with HTTP 200 (320011); here it becomes the error at once, so
    /// that it carries when the quota resets (``QuotaGuard/dated(_:)``) as the local budget's does. Any other
    /// answer, faults included, goes on to its decoder; only a body that names the code is parsed here.
    package static func quotaFault(in fetched: Fetched) throws(BoxOfficeError) -> Fetched {
        guard fetched.body.count < 4096, ByteSearch.contains(quotaFaultCode, in: fetched.body) else { return fetched }
        try KOBISDecoder.checkFault(try UpstreamReader.read(.kobis, fetched))
        return fetched
    }

    private static let quotaFaultCode = Array(#""320011""#.utf8)
}
