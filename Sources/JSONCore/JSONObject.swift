/// A JSON object: members in document order, keys unique.
///
/// Lookup is a linear scan, which beats hashing for the small objects of a protocol message; equality ignores
/// member order, as JSON does.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One member of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]

    public init() {
        members = []
    }

    /// Builds an object from members; a later member replaces an earlier one with the same key.
    public init(_ pairs: [(String, JSONValue)]) {
        members = []
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// Adopts members already known to have unique keys (the parser rejects duplicates).
    init(uniqueMembers: [Member]) {
        members = uniqueMembers
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            members.first { $0.key == key }?.value
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var combined = 0
        for member in members {
            combined ^= member.hashValue
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
