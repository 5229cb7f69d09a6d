import NIOConcurrencyHelpers

/// The upstream calls of box office requests, kept by what they are made of (the day, the period, the filters).
///
/// Building a call (its parameters gathered, sorted and percent-encoded into the key) was the largest part of
/// answering a box office from memory, and a bot asks for the same few days again and again. Hashing the few values
/// a call is made of costs a fraction of that. Bounded: when full it starts again empty (the calls in use come back
/// on their next request).
final class BoxOfficeCalls: Sendable {
    /// What a box office call is made of.
    struct Key: Hashable, Sendable {
        /// `targetDt`: the day, or the last day of the period.
        let target: CalendarDate
        /// nil: a day.
        let period: WeekPeriod?
        let filters: BoxOfficeService.Filters
    }

    static let capacity = 1024

    /// The process's one: a call depends only on its key, so every service may share it. A global, so that it is
    /// made on the first box office request rather than at start: instantiating a dictionary keyed by a new Hashable
    /// type makes the runtime scan every conformance record of the binary once, about a million instructions.
    static let shared = BoxOfficeCalls()
    private let calls = NIOLockedValueBox<[Key: UpstreamCall]>([:])

    /// The call for `key`, made on first use; `refresh` is the request's own.
    func call(_ key: Key, refresh: Bool) -> UpstreamCall {
        var call =
            calls.withLockedValue { $0[key] }
            ?? {
                let made = Self.make(key)
                calls.withLockedValue { calls in
                    if calls.count >= Self.capacity { calls.removeAll(keepingCapacity: true) }
                    calls[key] = made
                }
                return made
            }()
        call.refresh = refresh
        return call
    }

    private static func make(_ key: Key) -> UpstreamCall {
        var parameters = key.filters.parameters
        parameters["targetDt"] = key.target.compact
        if let period = key.period { parameters["weekGb"] = period.weekGb }
        return UpstreamCall(
            service: .kobis, path: key.period == nil ? KOBISPaths.daily : KOBISPaths.weekly, parameters: parameters)
    }
}
