import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers

/// The KOBIS budget per KST day (about 3,000 calls per key per day upstream; `--kobis-daily-limit`), exact across
/// every worker that shares the store — the processes of one machine through SQLite, every machine through
/// PostgreSQL.
///
/// A worker takes a *lease* of calls from the day's shared count with one atomic statement (never more than the
/// limit in all, whatever the interleaving), spends it locally and writes each spend to the lease's row right
/// alongside the call (``SpendLedger``; the answer waits for it), so the store always knows what a lease has left. Leases are held by the
/// worker's identity and expire (``leaseSeconds``, by the database's clock): at exit the unspent calls are given
/// back, and a worker that died holding a lease loses it at its expiry, when any other worker takes the unspent
/// calls back. Only one lease request per worker is in flight at a time, and near the limit leases shrink — the
/// store grants a quarter of what is left at most, and a worker asks for no more than the calls it is waiting to
/// make — so a fleet spends the budget exactly instead of leaving calls in the leases of workers with nothing to do.
///
/// Without a usable store the calls are counted in this process only (and `worker.status` says so); when the store
/// comes back, those calls are added to the shared count (reconciled) before the next lease.
package final class QuotaGuard: Sendable {
    package struct Status: Sendable {
        package var limit: Int
        package var used: Int
        package var remaining: Int { max(0, limit - used) }
        package var day: CalendarDate
        /// RFC 3339, UTC: the next midnight in Seoul.
        package var resetsAt: String
        /// True while calls are counted in this process only (no store, or the store is unreachable).
        package var countingInProcess: Bool
    }

    package static let leaseSize = 10
    /// How long a lease holds by default; `--lease-seconds`.
    package static let defaultLeaseSeconds = 60.0

    private struct Local {
        var day: CalendarDate?
        /// The lease being spent, its calls left and when this worker stops using it (before the store's expiry,
        /// so a late spend never lands on a lease already reclaimed).
        var lease: Int64?
        var left = 0
        var usableUntil = ContinuousClock.now
        /// The lease request in flight, which every taker waits for instead of asking for one of its own, and
        /// ``release()`` before it gives the lease back.
        var renewing: Task<Renewal, Never>?
        /// Takers waiting for that request: near the limit a worker asks for no more calls than it has takers, so
        /// it never sits on calls another worker needs.
        var waiting = 0
        /// Calls counted in the process and not yet added to the shared count.
        var unrecorded = 0
        /// The shared count for `day` as the store last reported it (this worker's lease included).
        var shared = 0
        var countingInProcess = false

        mutating func roll(to today: CalendarDate) {
            guard day != today else { return }
            self = Local(day: today)
        }

        mutating func spend(_ day: CalendarDate) -> Int64? {
            guard self.day == day, let lease, left > 0, ContinuousClock.now < usableUntil else { return nil }
            left -= 1
            return lease
        }
    }

    private enum Renewal: Sendable {
        case granted, exhausted, storeFailed
    }

    package let limit: Int
    /// Who this worker is in the store's lease rows.
    package let worker: String
    package let leaseSeconds: Double
    private let store: (any BoxOfficeStore)?
    private let ledger: SpendLedger?
    private let today: @Sendable () -> CalendarDate
    private let warnings: CacheWarnings
    private let local = NIOLockedValueBox(Local())

    package init(
        limit: Int, store: (any BoxOfficeStore)?, worker: String, leaseSeconds: Double = defaultLeaseSeconds,
        today: @escaping @Sendable () -> CalendarDate, warnings: CacheWarnings
    ) {
        self.limit = limit
        self.store = store
        self.worker = worker
        self.leaseSeconds = leaseSeconds
        self.today = today
        self.warnings = warnings
        ledger = store.map { SpendLedger(store: $0, worker: worker, warnings: warnings) }
    }

    /// A worker identity for lease rows: host name, process id and a random part.
    package static func workerIdentity() -> String {
        var name = [UInt8](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }, as: UTF8.self) : "host"
        return "\(host):\(getpid()):\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// A call taken from a lease, whose spend is being written: ``committed(_:)`` waits for the write.
    package struct Spend: Sendable {
        fileprivate let sequence: UInt64
    }

    /// Takes one KOBIS call from today's budget, or throws `quota_exhausted`. With a store, the spend's write is
    /// under way when this returns; make the call, then wait for ``committed(_:)`` before answering.
    @discardableResult
    package func take() async throws(BoxOfficeError) -> Spend? {
        let day = today()
        guard let store, let ledger else {
            try countInProcess(day)
            return nil
        }
        while true {
            enum Step {
                case spent(Int64)
                case wait(Task<Renewal, Never>)
            }
            let step = local.withLockedValue { local -> Step in
                local.roll(to: day)
                if let lease = local.spend(day) { return .spent(lease) }
                local.waiting += 1
                if let renewing = local.renewing { return .wait(renewing) }
                // Unstructured because it serves every taker that waits, not only the one that started it. Owned all
                // the same: kept in `renewing`, awaited by each taker and by release(); never cancelled, since the
                // store's own deadline bounds it.
                let renewing = Task { await self.renew(day, store: store) }
                local.renewing = renewing
                return .wait(renewing)
            }
            switch step {
            case .spent(let lease):
                return Spend(sequence: ledger.spent(lease, day: day))
            case .wait(let renewing):
                let renewal = await renewing.value
                local.withLockedValue { $0.waiting -= 1 }
                switch renewal {
                case .granted: continue
                case .exhausted: throw exhausted(day)
                case .storeFailed:
                    try countInProcess(day)
                    return nil
                }
            }
        }
    }

    /// Returns once the spend is written to the store (at once while the store fails).
    package func committed(_ spend: Spend) async {
        await ledger?.committed(through: spend.sequence)
    }

    /// Asks the store for a lease (after adding calls counted in the process during an outage to the shared count).
    private func renew(_ day: CalendarDate, store: any BoxOfficeStore) async -> Renewal {
        let (unrecorded, wanted) = local.withLockedValue { local -> (Int, Int) in
            let nearLimit = limit - local.shared < Self.leaseSize * 4
            let wanted = nearLimit ? max(1, min(Self.leaseSize, local.waiting)) : Self.leaseSize
            return (local.day == day ? local.unrecorded : 0, wanted)
        }
        let outcome: Renewal
        do {
            if unrecorded > 0 {
                try await store.recordCalls(.kobis, day: day, worker: worker, count: unrecorded)
            }
            let grant = try await store.takeLease(
                LeaseRequest(
                    service: .kobis, day: day, worker: worker, wanted: wanted, limit: limit,
                    seconds: leaseSeconds))
            warnings.succeeded()
            let usableUntil = ContinuousClock.now + .seconds(leaseSeconds - min(5, leaseSeconds / 5))
            local.withLockedValue { local in
                local.roll(to: day)
                local.unrecorded -= min(local.unrecorded, unrecorded)
                local.countingInProcess = false
                local.shared = grant.allotted
                if let lease = grant.lease, grant.granted > 0 {
                    local.lease = lease
                    local.left = grant.granted
                    local.usableUntil = usableUntil
                }
            }
            outcome = grant.granted > 0 ? .granted : .exhausted
        } catch {
            warnings.failed(
                "\(store.description.location) cannot count KOBIS calls (\(error)); counting in this process only")
            outcome = .storeFailed
        }
        local.withLockedValue { $0.renewing = nil }
        return outcome
    }

    /// Counts a call in this process: no store, or the store failed. The budget is what the shared count left
    /// when it was last seen.
    private func countInProcess(_ day: CalendarDate) throws(BoxOfficeError) {
        let granted = local.withLockedValue { local -> Bool in
            local.roll(to: day)
            local.countingInProcess = store != nil
            guard local.shared + local.unrecorded < limit else { return false }
            local.unrecorded += 1
            return true
        }
        guard granted else { throw exhausted(day) }
    }

    /// KOBIS's own "quota used up" (320011) with the moment it ends, as the local budget's has: KOBIS counts a
    /// key's calls by the day in Seoul too, so a job runner can wait for the reset instead of guessing.
    package func dated(_ error: BoxOfficeError) -> BoxOfficeError {
        guard error.reason == .quotaExhausted, error.service == .kobis, error.resetsAt == nil else { return error }
        var dated = error
        dated.resetsAt = Self.resetsAt(today())
        return dated
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

    /// At exit: waits for a lease request still in flight (a lease granted after the give-back would be held until
    /// it expired), writes the last spends, adds calls counted in the process to the shared count and gives the
    /// unspent lease back.
    package func release() async {
        guard let store, let ledger else { return }
        if let renewing = local.withLockedValue({ $0.renewing }) {
            _ = await renewing.value
        }
        await ledger.flush()
        let (day, unrecorded) = local.withLockedValue { local -> (CalendarDate?, Int) in
            defer {
                local.lease = nil
                local.left = 0
                local.unrecorded = 0
            }
            return (local.day, local.unrecorded)
        }
        guard let day else { return }
        do {
            try await store.recordCalls(.kobis, day: day, worker: worker, count: unrecorded)
            try await store.giveBack(.kobis, day: day, worker: worker)
        } catch {
            warnings.report(
                "the unspent KOBIS lease could not be given back (\(error)); it returns to the budget when it expires")
        }
    }

    /// Today's figures as this worker knows them without asking the store: the shared count as it stood at the last
    /// lease, less this worker's unspent lease, plus the calls counted in the process.
    package var known: Status {
        figures(today(), shared: nil)
    }

    /// Today's figures with the shared count read from the store (other workers' calls and leases included);
    /// ``known`` when the store cannot answer within `patience`.
    ///
    /// Through ``Deadline``: a task group would wait for its store child, and a read stuck on a connection whose peer
    /// vanished ignores cancellation, so `worker.status` would wait with it past any patience.
    package func status(patience: Duration = .milliseconds(50)) async -> Status {
        guard let store else { return known }
        let day = today()
        let shared = try? await Deadline.run(patience, onExpiry: { StoreError("the quota count took too long") }) {
            try await store.quotaCount(.kobis, day: day).allotted
        }
        return figures(day, shared: shared)
    }

    private func figures(_ day: CalendarDate, shared read: Int?) -> Status {
        let (used, inProcess) = local.withLockedValue { local -> (Int, Bool) in
            guard local.day == day else { return (read ?? 0, local.countingInProcess) }
            let unspent = ContinuousClock.now < local.usableUntil ? local.left : 0
            return (max(0, (read ?? local.shared) - unspent) + local.unrecorded, local.countingInProcess)
        }
        return Status(
            limit: limit, used: used, day: day, resetsAt: Self.resetsAt(day),
            countingInProcess: store == nil || inProcess)
    }

    /// Midnight KST after `day`, in UTC: 15:00 UTC on `day`.
    package static func resetsAt(_ day: CalendarDate) -> String {
        "\(day)T15:00:00Z"
    }
}
