import NIOConcurrencyHelpers
import Synchronization

/// Values the domain derives from one cached upstream body (its decoded model), kept beside it
/// in the in-memory cache so a hot entry is decoded and encoded once, not on every request.
///
/// It lives and dies with its cache entry: a refetched or expired body comes with a new, empty one, so nothing
/// derived outlives the body it came from.
///
/// `@unchecked`: the table is only touched under its lock, and every key in it is a ``DerivedKey`` (Sendable); only
/// `AnyHashable`, which erases that, is not marked Sendable.
package final class DerivedValues: @unchecked Sendable {
    private let table = NIOLockedValueBox<[AnyHashable: any Sendable]>([:])
    /// The serial number of the body these values come from: unique in the process, so a caller may key what it
    /// derives itself by it (``Kept/body``).
    package let serial: UInt64
    private static let serials = Atomic<UInt64>(0)

    package init() {
        serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    /// The value kept under `key`, made by `make` on first use. A `make` that throws keeps nothing.
    package func value<Key: DerivedKey, E: Error>(_ key: Key, _ make: () throws(E) -> Key.Value) throws(E) -> Key.Value
    {
        if let known = table.withLockedValue({ $0[AnyHashable(key)] }) as? Key.Value { return known }
        let made = try make()
        table.withLockedValue { $0[AnyHashable(key)] = made }
        return made
    }
}
