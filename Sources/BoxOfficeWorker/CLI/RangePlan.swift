import BoxOfficeCore
import BoxOfficeMethods
import JSONRPC

/// What a range of periods will cost before anything is fetched, for the range export and the static site alike:
/// which periods the cache holds fresh, how many KOBIS calls the rest need, how many remain today, and which of
/// the rest to fetch now.
///
/// A range that needs more calls than remain is refused before any call, unless `--max-calls` allows a partial
/// run: then the first uncached periods (in date order) are fetched, as many as `--max-calls` and the quota allow,
/// and the rest are named as missing. Finished periods are cached, so a second run resumes. A box office call is
/// what is counted: `--with-details` spends a detail call per uncached film on top, within the same quota guard.
struct RangePlan {
    /// One plan per period, in date order.
    let plans: [BoxOfficePlan]
    /// What the cache holds, decoded once, by period.
    let cached: [Int: BoxOffice]
    /// The periods the cache does not hold, in date order.
    let uncached: [Int]
    /// The uncached periods to fetch now, in date order.
    let chosen: [Int]
    /// Whether today's quota, rather than `--max-calls`, left uncached periods unfetched.
    let heldBackByQuota: Bool

    /// A range refused: the line saying why.
    struct Refusal: Error {
        let error: RPCError?
        let message: String
    }

    /// Plans `inputs` through `method`'s rules. - Throws: ``Refusal`` when an input is invalid, or when the calls
    /// needed exceed what remains today and `maxCalls` is not given.
    init(session: CLISession, method: BoxOfficeMethod, inputs: [BoxOfficeMethod.Input], maxCalls: Int?)
        async throws(Refusal)
    {
        let service = session.service
        do throws(RPCError) {
            plans = try inputs.map { input throws(RPCError) in
                try method.check(input)
                return try method.plan(input)
            }
        } catch {
            throw Refusal(error: error, message: error.message)
        }
        await service.prefetch(plans)
        var cached: [Int: BoxOffice] = [:]
        for index in plans.indices {
            var plan = plans[index]
            if let kept = service.inMemory(&plan) { cached[index] = kept.value }
        }
        self.cached = cached
        uncached = plans.indices.filter { cached[$0] == nil }
        let remaining = await session.runtime.quota?.status().remaining ?? Int.max
        if maxCalls == nil, uncached.count > remaining {
            let resets =
                session.runtime.quota.map { _ in " (it resets at \(QuotaGuard.resetsAt(session.today)))" } ?? ""
            throw Refusal(
                error: nil,
                message:
                    "\(plans.count) periods, \(cached.count) cached: \(uncached.count) KOBIS calls needed and "
                    + "\(remaining) left today\(resets); nothing fetched. Give --max-calls N to fetch part of the "
                    + "range now")
        }
        chosen = Array(uncached.prefix(min(uncached.count, maxCalls ?? uncached.count, remaining)))
        heldBackByQuota = remaining < min(uncached.count, maxCalls ?? uncached.count)
    }
}
