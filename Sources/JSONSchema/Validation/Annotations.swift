/// What a successful evaluation marked as evaluated, for `unevaluatedProperties` and `unevaluatedItems`.
///
/// Only collected when the schema uses an `unevaluated*` keyword; otherwise every set stays empty and nothing
/// allocates.
struct Annotations {
    var properties: Set<String> = []
    var allProperties = false
    /// Items `[0, prefixItems)` were evaluated by `prefixItems`.
    var prefixItems = 0
    var allItems = false
    /// Items evaluated by `contains`.
    var itemIndices: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        if !other.properties.isEmpty { properties.formUnion(other.properties) }
        allProperties = allProperties || other.allProperties
        prefixItems = max(prefixItems, other.prefixItems)
        allItems = allItems || other.allItems
        if !other.itemIndices.isEmpty { itemIndices.formUnion(other.itemIndices) }
    }

    func evaluatedItem(_ index: Int) -> Bool {
        allItems || index < prefixItems || itemIndices.contains(index)
    }

    func evaluatedProperty(_ name: String) -> Bool {
        allProperties || properties.contains(name)
    }
}
