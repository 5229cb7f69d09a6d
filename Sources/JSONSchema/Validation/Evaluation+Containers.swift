import JSONCore

extension Evaluation {
    mutating func array(_ keyword: Keyword, _ array: [JSONValue], _ local: inout Annotations) -> Bool {
        switch keyword {
        case .maxItems(let limit):
            if array.count <= limit { return true }
            report("maxItems", "has \(array.count) items, more than \(limit)")
        case .minItems(let limit):
            if array.count >= limit { return true }
            report("minItems", "has \(array.count) items, fewer than \(limit)")
        case .uniqueItems:
            for first in array.indices {
                for second in array.indices where second > first && array[first].schemaEquals(array[second]) {
                    report("uniqueItems", "items \(first) and \(second) are equal; items must be unique")
                    return false
                }
            }
            return true
        case .prefixItems(let schemas):
            var valid = true
            for (index, schema) in zip(array.indices, schemas)
            where !descend(
                schema, array[index], child: .index(index), keyword: "prefixItems", .index(index), into: &local)
            {
                valid = false
                if !collecting { return false }
            }
            local.prefixItems = max(local.prefixItems, min(array.count, schemas.count))
            return valid
        case .items(let schema, let prefixCount):
            var valid = true
            for index in array.indices
            where index >= prefixCount
                && !descend(schema, array[index], child: .index(index), keyword: "items", into: &local)
            {
                valid = false
                if !collecting { return false }
            }
            local.allItems = true
            return valid
        case .contains(let schema, let minimum, let maximum):
            var matches = 0
            for (index, item) in array.enumerated() {
                var ignored = Annotations()
                if quietly(schema, item, item: true, into: &ignored) {
                    matches += 1
                    if graph.tracksAnnotations { local.itemIndices.insert(index) }
                }
            }
            if matches < minimum {
                report(
                    "contains",
                    minimum == 1
                        ? "no item matches the contains schema"
                        : "\(matches) items match the contains schema, fewer than minContains \(minimum)")
                return false
            }
            if let maximum, matches > maximum {
                report("maxContains", "\(matches) items match the contains schema, more than maxContains \(maximum)")
                return false
            }
            return true
        case .unevaluatedItems(let schema):
            var valid = true
            for index in array.indices
            where !local.evaluatedItem(index)
                && !descend(schema, array[index], child: .index(index), keyword: "unevaluatedItems", into: &local)
            {
                valid = false
                if !collecting { return false }
            }
            local.allItems = true
            return valid
        default:
            return true
        }
        return false
    }

    mutating func object(_ keyword: Keyword, _ object: JSONObject, _ instance: JSONValue, _ local: inout Annotations)
        -> Bool
    {
        let tracking = graph.tracksAnnotations
        switch keyword {
        case .maxProperties(let limit):
            if object.count <= limit { return true }
            report("maxProperties", "has \(object.count) properties, more than \(limit)")
        case .minProperties(let limit):
            if object.count >= limit { return true }
            report("minProperties", "has \(object.count) properties, fewer than \(limit)")
        case .required(let names):
            var valid = true
            for name in names where object[name] == nil {
                report("required", "the property \"\(name)\" is required")
                valid = false
                if !collecting { return false }
            }
            return valid
        case .dependentRequired(let dependencies):
            var valid = true
            for (trigger, names) in dependencies where object[trigger] != nil {
                for name in names where object[name] == nil {
                    report("dependentRequired", "the property \"\(name)\" is required when \"\(trigger)\" is present")
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .properties(let table):
            var valid = true
            for member in object {
                guard let schema = table.lookup(member.key) else { continue }
                if tracking { local.properties.insert(member.key) }
                if !descend(
                    schema, member.value, child: .key(member.key), keyword: "properties", .key(member.key), into: &local
                ) {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .patternProperties(let patterns):
            var valid = true
            for member in object {
                for (regex, schema) in patterns where regex.matches(member.key) {
                    if tracking { local.properties.insert(member.key) }
                    if !descend(
                        schema, member.value, child: .key(member.key), keyword: "patternProperties", .key(regex.source),
                        into: &local)
                    {
                        valid = false
                        if !collecting { return false }
                    }
                }
            }
            return valid
        case .additionalProperties(let schema, let known, let patterns):
            var valid = true
            for member in object
            where known.lookup(member.key) == nil && !patterns.contains(where: { $0.matches(member.key) }) {
                if tracking { local.properties.insert(member.key) }
                if case .never = graph.nodes[schema].body {
                    if collecting {
                        instancePath.append(member.key)
                        report("additionalProperties", "the property \"\(member.key)\" is not allowed")
                        instancePath.removeLast()
                    }
                    valid = false
                    if !collecting { return false }
                } else if !descend(
                    schema, member.value, child: .key(member.key), keyword: "additionalProperties", into: &local)
                {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .propertyNames(let schema):
            var valid = true
            for member in object {
                var ignored = Annotations()
                if !descend(
                    schema, .string(member.key), child: .key(member.key), keyword: "propertyNames", into: &ignored)
                {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .dependentSchemas(let dependencies):
            var valid = true
            for (trigger, schema) in dependencies where object[trigger] != nil {
                if !descend(schema, instance, child: .none, keyword: "dependentSchemas", .key(trigger), into: &local) {
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .unevaluatedProperties(let schema):
            var valid = true
            for member in object where !local.evaluatedProperty(member.key) {
                if !descend(
                    schema, member.value, child: .key(member.key), keyword: "unevaluatedProperties", into: &local)
                {
                    valid = false
                    if !collecting { return false }
                }
            }
            local.allProperties = true
            return valid
        default:
            return true
        }
        return false
    }
}
