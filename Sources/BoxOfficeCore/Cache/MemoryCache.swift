import JSONCore
import NIOConcurrencyHelpers

/// The small in-memory LRU in front of the SQLite cache: the hottest entries, already parsed.
///
/// Least-recently-used eviction over a dictionary plus a use counter: with a capacity in the hundreds, finding the
/// oldest entry by a scan on eviction is cheaper than keeping a linked list in step on every hit.
///
/// Why our own: none of the packages we may use has an LRU (swift-collections' `OrderedDictionary` moves an entry
/// to the end in O(n)); the entries also carry their parsed document and derived values, which a generic cache
/// would hide.
final class MemoryCache: Sendable {
    struct Entry: Sendable {
        var entry: StoredEntry
        /// What a hit is served as: `cache` for live bodies, the fixture's own source for fixtures.
        var source: Source
        var document: JSONValue?
        /// The models the domain decoded from this body.
        var derived: DerivedValues
        var lastUse: UInt64
    }

    private struct Table {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
        var generation: UInt64 = 0
    }

    let capacity: Int
    private let table = NIOLockedValueBox(Table())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func entry(_ key: String) -> Entry? {
        table.withLockedValue { table in
            guard var found = table.entries[key] else { return nil }
            table.clock &+= 1
            found.lastUse = table.clock
            table.entries[key] = found
            return found
        }
    }

    /// Keeps an entry; returns the store of values derived from it (`derived`, new by default: the body is new).
    @discardableResult
    func store(
        _ key: String, _ entry: StoredEntry, source: Source, document: JSONValue?,
        derived: DerivedValues = DerivedValues()
    ) -> DerivedValues {
        table.withLockedValue { table in
            table.clock &+= 1
            table.generation &+= 1
            if table.entries[key] == nil, table.entries.count >= capacity,
                let oldest = table.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                table.entries.removeValue(forKey: oldest)
            }
            table.entries[key] = Entry(
                entry: entry, source: source, document: document, derived: derived, lastUse: table.clock)
        }
        return derived
    }

    /// Changes whenever a body is stored.
    var generation: UInt64 { table.withLockedValue { $0.generation } }

    /// Keeps a parse made on a hit, so the next hit skips it.
    func remember(_ key: String, document: JSONValue) {
        table.withLockedValue { table in table.entries[key]?.document = document }
    }
}
