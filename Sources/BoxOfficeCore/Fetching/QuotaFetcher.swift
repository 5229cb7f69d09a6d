import Foundation
import Synchronization

/// Spends the quota on every KOBIS call that reaches it (placed behind the cache and the coalescer, so only real
/// upstream calls count).
package struct QuotaFetcher: Fetcher {
    private let inner: any Fetcher
    private let quota: QuotaGuard

    package init(_ inner: any Fetcher, quota: QuotaGuard) {
        self.inner = inner
        self.quota = quota
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        if call.service == .kobis { try await quota.take() }
        return try await inner.fetch(call)
    }
}
