import JSONCore

/// Property names to subschemas. Small tables (most schemas) are scanned: Swift compares short strings as raw bits,
/// which beats hashing each instance key; large tables hash. Matches compare code points, not Swift's canonical
/// equivalence, as JSON requires.
struct PropertyTable: Sendable {
    /// Every entry, in schema order.
    let entries: [(String, Int)]
    private let small: [(String, Int)]
    /// By name, each entry keeping its own name: Swift's dictionary matches canonically equivalent keys, so a
    /// hit is confirmed against the stored name by code points.
    private let large: [String: (name: String, schema: Int)]?

    static let scanLimit = 16

    init(_ entries: [(String, Int)]) {
        self.entries = entries
        if entries.count <= Self.scanLimit {
            small = entries
            large = nil
        } else {
            small = []
            large = Dictionary(
                entries.map { ($0.0, (name: $0.0, schema: $0.1)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    func lookup(_ key: String) -> Int? {
        if let large {
            guard let entry = large[key], JSONValue.sameCodePoints(entry.name, key) else { return nil }
            return entry.schema
        }
        for (name, schema) in small where name == key && JSONValue.sameCodePoints(name, key) {
            return schema
        }
        return nil
    }
}
