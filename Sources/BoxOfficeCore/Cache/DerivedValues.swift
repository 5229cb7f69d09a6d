import NIOConcurrencyHelpers
import Synchronization

/// What the domain derives from one cached upstream body (the box office or the lookup's value decoded from it), kept
/// beside it in the in-memory cache, so a hot entry is decoded once, not on every request; and the body's serial
/// number.
///
/// It lives and dies with its cache entry: a refetched or expired body comes with a new, empty one, so nothing
/// derived outlives the body it came from. Slots, not a table of any values: the box office's is typed (one lock,
/// one comparison: the hottest answer); a lookup's is one value read back with one cast, where a table keyed by
/// `AnyHashable` cost a dynamic cast and metadata lookups per key on every answer.
package final class DerivedValues: Sendable {
    /// The box office decoded from the body, and the period it was decoded as (nil: a day).
    private let decoded = NIOLockedValueBox<(period: WeekPeriod?, office: BoxOffice)?>(nil)
    /// The value a ``Lookup`` decoded from the body (a movie, a person, a company, a code list): one body answers one
    /// lookup, so one slot; read back as the lookup's type (a cast, where the box office's slot needs none).
    private let looked = NIOLockedValueBox<(any Sendable)?>(nil)
    /// The serial number of the body these values come from: unique in the process, so a caller may key what it
    /// derives itself by it (``BodyBacked/body``).
    package let serial: UInt64
    private static let serials = Atomic<UInt64>(0)

    package init() {
        serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    /// The lookup's value, made by `decode` on first use. A `decode` that throws keeps nothing.
    func value<Value: Sendable>(_ decode: () throws(BoxOfficeError) -> Value) throws(BoxOfficeError) -> Value {
        if let known = looked.withLockedValue({ $0 }) as? Value { return known }
        let value = try decode()
        looked.withLockedValue { $0 = value }
        return value
    }

    /// The box office decoded as `period`, made by `decode` on first use. A `decode` that throws keeps nothing.
    func boxOffice(period: WeekPeriod?, _ decode: () throws(BoxOfficeError) -> BoxOffice) throws(BoxOfficeError)
        -> BoxOffice
    {
        if let known = decoded.withLockedValue({ $0 }), known.period == period { return known.office }
        let office = try decode()
        decoded.withLockedValue { $0 = (period, office) }
        return office
    }
}
