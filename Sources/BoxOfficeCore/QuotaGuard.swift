import Foundation
import Synchronization

/// The local KOBIS budget per KST day (about 3,000 calls per key per day upstream; `--kobis-daily-limit`).
///
/// Calls are counted in the shared cache database, so every worker on the machine spends one budget; without a
/// usable database they are counted in this process only. The day is the worker's Seoul "today", so the budget
/// resets at midnight KST (15:00 UTC).
public final class QuotaGuard: Sendable {
    public struct Status: Sendable {
        public var limit: Int
        public var used: Int
        public var remaining: Int { max(0, limit - used) }
        public var day: CalendarDate
        /// RFC 3339, UTC: the next midnight in Seoul.
        public var resetsAt: String
    }

    public let limit: Int
    private let store: CacheStore?
    private let today: @Sendable () -> CalendarDate
    private let warnings: CacheWarnings
    private let local = Mutex<[CalendarDate: Int]>([:])

    public init(limit: Int, store: CacheStore?, today: @escaping @Sendable () -> CalendarDate, warnings: CacheWarnings) {
        self.limit = limit
        self.store = store
        self.today = today
        self.warnings = warnings
    }

    /// Takes one KOBIS call from today's budget, or throws `quota_exhausted`.
    public func take() async throws(BoxOfficeError) {
        let day = today()
        var taken: Bool?
        if let store {
            do {
                taken = try await store.takeCall(.kobis, day: day, limit: limit)
            } catch {
                warnings.warn("the cache at \(store.directory.path) cannot count KOBIS calls (\(error)); counting in this process only")
            }
        }
        let granted = taken ?? local.withLock { counts in
            guard counts[day, default: 0] < limit else { return false }
            counts[day, default: 0] += 1
            return true
        }
        guard granted else {
            let resetsAt = Self.resetsAt(day)
            var error = BoxOfficeError(.quotaExhausted, "the local KOBIS budget of \(limit) calls for \(day) (KST) is spent; it resets at \(resetsAt) (cached answers are still served)", service: .kobis)
            error.limit = limit
            error.resetsAt = resetsAt
            throw error
        }
    }

    public var status: Status {
        let day = today()
        let used = (try? store?.calls(.kobis, day: day)) ?? local.withLock { $0[day, default: 0] }
        return Status(limit: limit, used: used, day: day, resetsAt: Self.resetsAt(day))
    }

    /// Midnight KST after `day`, in UTC: 15:00 UTC on `day`.
    static func resetsAt(_ day: CalendarDate) -> String {
        "\(day)T15:00:00Z"
    }
}

/// Spends the quota on every KOBIS call that reaches it (placed behind the cache and the coalescer, so only real
/// upstream calls count).
public struct QuotaFetcher: Fetcher {
    private let inner: any Fetcher
    private let quota: QuotaGuard

    public init(_ inner: any Fetcher, quota: QuotaGuard) {
        self.inner = inner
        self.quota = quota
    }

    public func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        if call.service == .kobis { try await quota.take() }
        return try await inner.fetch(call)
    }
}
