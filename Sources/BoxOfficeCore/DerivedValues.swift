import Synchronization

/// Values derived from one cached upstream body (its decoded model, a method's serialized answer), kept beside it
/// in the in-memory cache so a hot entry is decoded and encoded once, not on every request.
///
/// It lives and dies with its cache entry: a refetched or expired body comes with a new, empty one, so nothing
/// derived outlives the body it came from. Keys name what was derived and from which inputs.
public final class DerivedValues: Sendable, Hashable {
    private let table = Mutex<[String: any Sendable]>([:])

    public init() {}

    /// The value kept under `key`, made by `make` on first use. A `make` that throws keeps nothing.
    public func value<T: Sendable, E: Error>(_ key: String, _ make: () throws(E) -> T) throws(E) -> T {
        if let known = table.withLock({ $0[key] }) as? T { return known }
        let made = try make()
        table.withLock { $0[key] = made }
        return made
    }

    public static func == (lhs: DerivedValues, rhs: DerivedValues) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
