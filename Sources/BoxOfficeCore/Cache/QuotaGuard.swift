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
package final class QuotaGuard: Sendable {
    package struct Status: Sendable {
        package var limit: Int
        package var used: Int
        package var remaining: Int { max(0, limit - used) }
        package var day: CalendarDate
        /// RFC 3339, UTC: the next midnight in Seoul.
        package var resetsAt: String
    }

    package static let leaseSize = 10

    private struct Local {
        var day: CalendarDate?
        /// Reserved in the database and not spent yet (with a store); else unused.
        var leased = 0
        /// Calls made today when there is no store.
        var counted = 0
        /// The shared count for `day` as the store last reported it (this worker's lease included).
        var shared = 0

        /// Starts a new day's figures when `today` is not `day`.
        mutating func roll(to today: CalendarDate) {
            guard day != today else { return }
            self = Local(day: today)
        }
    }

    package let limit: Int
    private let store: CacheStore?
    private let today: @Sendable () -> CalendarDate
    private let warnings: CacheWarnings
    private let local = Mutex(Local())

    package init(limit: Int, store: CacheStore?, today: @escaping @Sendable () -> CalendarDate, warnings: CacheWarnings)
    {
        self.limit = limit
        self.store = store
        self.today = today
        self.warnings = warnings
    }

    /// Takes one KOBIS call from today's budget, or throws `quota_exhausted`.
    package func take() async throws(BoxOfficeError) {
        let day = today()
        if spendLocally(day) { return }
        if let store {
            do {
                let (granted, shared) = try await store.reserveCalls(
                    .kobis, day: day, count: Self.leaseSize, limit: limit)
                warnings.succeeded()
                local.withLock { local in
                    local.roll(to: day)
                    local.shared = shared
                    if granted > 0 { local.leased += granted - 1 }
                }
                if granted > 0 { return }
                throw exhausted(day)
            } catch let error as BoxOfficeError {
                throw error
            } catch {
                warnings.failed(
                    "the cache at \(store.directory.path) cannot count KOBIS calls (\(error)); counting in this process only"
                )
            }
        }
        let granted = local.withLock { local -> Bool in
            local.roll(to: day)
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
        var error = BoxOfficeError(
            .quotaExhausted,
            "the local KOBIS budget of \(limit) calls for \(day) (KST) is spent; it resets at \(resetsAt) (cached answers are still served)",
            service: .kobis)
        error.limit = limit
        error.resetsAt = resetsAt
        return error
    }

    /// Gives the unspent lease back to the shared count; call at exit.
    package func release() async {
        let (day, unspent) = local.withLock { local -> (CalendarDate?, Int) in
            defer { local.leased = 0 }
            return (local.day, local.leased)
        }
        guard let store, let day, unspent > 0 else { return }
        do {
            try await store.releaseCalls(.kobis, day: day, count: unspent)
        } catch {
            warnings.report("the unspent KOBIS lease of \(unspent) calls could not be given back (\(error))")
        }
    }

    /// Today's figures as this worker knows them without asking the store: calls made as the shared count stood
    /// at its last reservation, less its own unspent lease, plus the calls it counted by itself (no store, or while
    /// the store failed).
    package var known: Status {
        figures(today(), shared: nil)
    }

    /// Today's figures with the shared count read from the store (other workers' calls included), on its
    /// read-only connection, which never waits for a writer; ``known`` when the store cannot answer within
    /// `patience`.
    package func status(patience: Duration = .milliseconds(50)) async -> Status {
        guard let store else { return known }
        let day = today()
        let shared = await withTaskGroup(of: Int?.self) { group in
            group.addTask { try? await store.calls(.kobis, day: day) }
            group.addTask {
                try? await Task.sleep(for: patience)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return figures(day, shared: shared)
    }

    /// The figures for `day` from the shared count `read` from the store, or (nil) as last reported to this
    /// worker: that count less this worker's unspent lease, plus what it counted by itself.
    private func figures(_ day: CalendarDate, shared read: Int?) -> Status {
        let used = local.withLock { local -> Int in
            guard local.day == day else { return read ?? 0 }
            return max(0, (read ?? local.shared) - local.leased) + local.counted
        }
        return Status(limit: limit, used: used, day: day, resetsAt: Self.resetsAt(day))
    }

    /// Midnight KST after `day`, in UTC: 15:00 UTC on `day`.
    package static func resetsAt(_ day: CalendarDate) -> String {
        "\(day)T15:00:00Z"
    }
}
