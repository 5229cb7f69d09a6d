/// A JSON object: members in document order, keys unique.
///
/// Lookup is a linear scan, which beats hashing for the small objects of a protocol message; equality ignores
/// member order, as JSON does. The scan compares UTF-8 lengths before text: two different strings compare through an
/// out-of-line call of the standard library even when both are small, and most keys of an object differ in length
/// (a KOBIS box office entry's eighteen fields were 3 % of an uncached call's CPU in these compares, issue 43). So two
/// keys match only when their UTF-8 is as long: canonically equivalent keys of different lengths (`é` and `e` +
/// U+0301) are two keys, as they are to Jansson, which compares bytes; two of the same length (combining marks in
/// another order) still match, as `String`'s `==` has it.
package struct JSONObject: Sendable, Hashable, Sequence {
    /// One member of an object.
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: JSONValue

        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    package private(set) var members: [Member]

    package init() {
        members = []
    }

    /// Builds an object from members; a later member replaces an earlier one with the same key.
    package init(_ pairs: [(String, JSONValue)]) {
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

    /// The same members, in order, each value transformed: linear, where rebuilding through ``init(_:)`` looks
    /// every key up again (quadratic in the members of a large object).
    package func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        JSONObject(uniqueMembers: try members.map { Member(key: $0.key, value: try transform($0.value)) })
    }

    package var count: Int { members.count }
    package var isEmpty: Bool { members.isEmpty }
    package var keys: [String] { members.map(\.key) }

    package subscript(key: String) -> JSONValue? {
        get {
            let length = key.utf8.count
            return members.first { $0.key.utf8.count == length && $0.key == key }?.value
        }
        set {
            let length = key.utf8.count
            if let index = members.firstIndex(where: { $0.key.utf8.count == length && $0.key == key }) {
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

    /// The value of `key`, looked for first at `position` and then from the start; `position` is left just after
    /// the member found. A reader that asks for an object's members in the order they come finds each at once,
    /// where the plain subscript compares about half the members first (a KOBIS box office's 180 fields were 4 % of
    /// an uncached call's instructions that way, issue 43).
    package func value(forKey key: String, from position: inout Int) -> JSONValue? {
        let length = key.utf8.count
        // The lengths first here too, as the subscript compares: `==` alone would take `e` + U+0301 for `é`.
        if position < members.count, members[position].key.utf8.count == length, members[position].key == key {
            position += 1
            return members[position - 1].value
        }
        guard let index = members.firstIndex(where: { $0.key.utf8.count == length && $0.key == key }) else {
            return nil
        }
        position = index + 1
        return members[index].value
    }

    package func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    package func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var combined = 0
        for member in members {
            combined ^= member.hashValue
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
