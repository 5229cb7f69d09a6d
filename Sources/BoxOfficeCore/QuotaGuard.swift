import Foundation
import Synchronization

/// The local KOBIS budget per KST day (about 3,000 calls per key per day upstream; `--kobis-daily-limit`).
///
/// Calls are counted in the shared cache database, so every worker on the machine spends one budget; without a
/// usable database they are counted in this process only. The day is the worker's Seoul "today", so the budget
/// resets at midnight KST (15:00 UTC).
///
/// A worker reserves calls from the database a few at a time (a lease of up to ``leaseSize``) and spends them
/// locally, then gives back what it did not spend when it exits: one write per ten calls instead of one per call,
/// on the requests' path. The count in the database therefore includes other workers' unspent leases: near the
/// limit a worker may stop a few calls short of it, never past it.
public final class QuotaGuard: Sendable {
    public struct Status: Sendable {
        public var limit: Int
        public var used: Int
        public var remaining: Int { max(0, limit - used) }
        public var day: CalendarDate
        /// RFC 3339, UTC: the next midnight in Seoul.
        public var resetsAt: String
    }

    public static let leaseSize = 10

    private struct Local {
        var day: CalendarDate?
        /// Reserved in the database and not spent yet (with a store); else unused.
        var leased = 0
        /// Calls made today when there is no store.
        var counted = 0
    }

    public let limit: Int
    private let store: CacheStore?
    private let today: @Sendable () -> CalendarDate
    private let warnings: CacheWarnings
    private let local = Mutex(Local())

    public init(limit: Int, store: CacheStore?, today: @escaping @Sendable () -> CalendarDate, warnings: CacheWarnings) {
        self.limit = limit
        self.store = store
        self.today = today
        self.warnings = warnings
    }

    /// Takes one KOBIS call from today's budget, or throws `quota_exhausted`.
    public func take() async throws(BoxOfficeError) {
        let day = today()
        if spendLocally(day) { return }
        if let store {
            do {
                let granted = try await store.reserveCalls(.kobis, day: day, count: Self.leaseSize, limit: limit)
                if granted > 0 {
                    local.withLock { local in
                        if local.day != day { (local.day, local.leased) = (day, 0) }
                        local.leased += granted - 1
                    }
                    return
                }
                throw exhausted(day)
            } catch let error as BoxOfficeError {
                throw error
            } catch {
                warnings.warn("the cache at \(store.directory.path) cannot count KOBIS calls (\(error)); counting in this process only")
            }
        }
        let granted = local.withLock { local -> Bool in
            if local.day != day { (local.day, local.counted, local.leased) = (day, 0, 0) }
            guard local.counted < limit else { return false }
            local.counted += 1
            return true
        }
        guard granted else { throw exhausted(day) }
    }

    /// Spends a call already leased for `day`.
    private func spendLocally(_ day: CalendarDate) -> Bool {
        local.withLock { local in
            guard local.day == day, local.leased > 0 else { return false }
            local.leased -= 1
            return true
        }
    }

    private func exhausted(_ day: CalendarDate) -> BoxOfficeError {
        let resetsAt = Self.resetsAt(day)
        var error = BoxOfficeError(.quotaExhausted, "the local KOBIS budget of \(limit) calls for \(day) (KST) is spent; it resets at \(resetsAt) (cached answers are still served)", service: .kobis)
        error.limit = limit
        error.resetsAt = resetsAt
        return error
    }

    /// Gives the unspent lease back to the shared count; call at exit.
    public func release() async {
        let (day, unspent) = local.withLock { local -> (CalendarDate?, Int) in
            defer { local.leased = 0 }
            return (local.day, local.leased)
        }
        guard let store, let day, unspent > 0 else { return }
        try? await store.releaseCalls(.kobis, day: day, count: unspent)
    }

    /// Today's figures: calls made (this worker's unspent lease not counted as made).
    public var status: Status {
        let day = today()
        let (leased, counted) = local.withLock { $0.day == day ? ($0.leased, $0.counted) : (0, 0) }
        let used = store.flatMap { try? $0.calls(.kobis, day: day) }.map { max(0, $0 - leased) } ?? counted
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
