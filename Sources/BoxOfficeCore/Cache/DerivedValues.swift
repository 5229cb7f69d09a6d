import NIOConcurrencyHelpers

/// Values derived from one cached upstream body (its decoded model, a method's serialized answer), kept beside it
/// in the in-memory cache so a hot entry is decoded and encoded once, not on every request.
///
/// It lives and dies with its cache entry: a refetched or expired body comes with a new, empty one, so nothing
/// derived outlives the body it came from.
///
/// `@unchecked`: the table is only touched under its lock, and every key in it is a ``DerivedKey`` (Sendable); only
/// `AnyHashable`, which erases that, is not marked Sendable.
package final class DerivedValues: @unchecked Sendable {
    private let table = NIOLockedValueBox<[AnyHashable: any Sendable]>([:])

    package init() {}

    /// The value kept under `key`, made by `make` on first use. A `make` that throws keeps nothing.
    package func value<Key: DerivedKey, E: Error>(_ key: Key, _ make: () throws(E) -> Key.Value) throws(E) -> Key.Value
    {
        if let known = table.withLockedValue({ $0[AnyHashable(key)] }) as? Key.Value { return known }
        let made = try make()
        table.withLockedValue { $0[AnyHashable(key)] = made }
        return made
    }
}
