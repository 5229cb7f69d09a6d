package import JSONCore

/// Turns schema documents into a graph of ``CompiledNode``s.
///
/// Two passes. Scanning walks each document's schema keywords (never `enum`/`const` values) and records its
/// resources (`$id`), anchors and dynamic anchors with their base URIs. Compiling then builds nodes from a worklist,
/// starting at the root: a subschema or a `$ref` target gets its node index at once and is compiled later, so
/// recursive references need neither recursion nor special cases.
final class SchemaCompiler {
    /// A place in a document: which document, and the JSON Pointer tokens from its root.
    struct Location: Hashable {
        let document: Int
        let pointer: [String]

        func appending(_ tokens: String...) -> Location {
            Location(document: document, pointer: pointer + tokens)
        }
    }

    struct Resource {
        let uri: URIReference
        let location: Location
        var anchors: [String: Location] = [:]
        var dynamicAnchors: [String: Location] = [:]
        var vocabularies: Vocabularies
    }

    static let metaSchema2020 = "https://json-schema.org/draft/2020-12/schema"
    static let defaultBase = URIReference("https://boxoffice-worker.invalid/schema.json")

    let options: SchemaOptions
    private(set) var documents: [JSONValue] = []
    private(set) var resources: [Resource] = []
    private var resourceByURI: [String: Int] = [:]
    private var resourceAt: [Location: Int] = [:]
    private(set) var nodes: [CompiledNode] = []
    private var nodeAt: [Location: Int] = [:]
    private var worklist: [(index: Int, location: Location)] = []
    private(set) var usesUnevaluated = false
    private(set) var usesDynamicScope = false

    init(options: SchemaOptions) {
        self.options = options
    }

    /// Compiles `document` and everything it references; the root node's index.
    func compileRoot(_ document: JSONValue) throws(SchemaCompilationError) -> Int {
        let resource = try register(document, retrievedFrom: Self.defaultBase)
        let root = node(at: resources[resource].location)
        try drain()
        // $dynamicRef may land on any dynamic anchor of any resource in the dynamic scope: compile them all.
        var compiled = 0
        while compiled < resources.count {
            for anchor in resources[compiled].dynamicAnchors.values {
                _ = node(at: anchor)
            }
            compiled += 1
            try drain()
        }
        return root
    }

    /// Node indexes of every resource's dynamic anchors, by resource index.
    var dynamicAnchorNodes: [[String: Int]] {
        resources.map { resource in resource.dynamicAnchors.compactMapValues { nodeAt[$0] } }
    }

    // MARK: Scanning

    /// Adds a document; the index of its root resource.
    @discardableResult
    private func register(_ document: JSONValue, retrievedFrom uri: URIReference) throws(SchemaCompilationError) -> Int
    {
        documents.append(document)
        let location = Location(document: documents.count - 1, pointer: [])
        let vocabularies = try vocabularies(of: document, inherited: .all)
        let retrieval = uri.withoutFragment
        resources.append(Resource(uri: retrieval, location: location, vocabularies: vocabularies))
        let root = resources.count - 1
        resourceByURI[retrieval.description] = root
        try scan(document, at: location, resource: root)
        return resourceAt[location] ?? root
    }

    private func scan(_ schema: JSONValue, at location: Location, resource parent: Int) throws(SchemaCompilationError) {
        guard case .object(let object) = schema else { return }
        var resource = parent
        if case .string(let id)? = object["$id"] {
            let uri = URIReference(id).resolved(against: resources[parent].uri).withoutFragment
            if location.pointer.isEmpty && resources[parent].location == location {
                // The document's own $id renames its root resource; the retrieval URI keeps working too.
                resources[parent] = Resource(uri: uri, location: location, vocabularies: resources[parent].vocabularies)
            } else {
                let vocabularies = try self.vocabularies(of: schema, inherited: resources[parent].vocabularies)
                resources.append(Resource(uri: uri, location: location, vocabularies: vocabularies))
                resource = resources.count - 1
            }
            resourceByURI[uri.description] = resource
        }
        resourceAt[location] = resource
        if case .string(let anchor)? = object["$anchor"] {
            resources[resource].anchors[anchor] = location
        }
        if case .string(let anchor)? = object["$dynamicAnchor"] {
            resources[resource].anchors[anchor] = location
            resources[resource].dynamicAnchors[anchor] = location
        }
        for member in object {
            switch member.key {
            case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
                for child in member.value.objectValue ?? JSONObject() {
                    try scan(child.value, at: location.appending(member.key, child.key), resource: resource)
                }
            case "allOf", "anyOf", "oneOf", "prefixItems":
                for (index, child) in (member.value.arrayValue ?? []).enumerated() {
                    try scan(child, at: location.appending(member.key, String(index)), resource: resource)
                }
            case "additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else",
                "unevaluatedItems", "unevaluatedProperties":
                try scan(member.value, at: location.appending(member.key), resource: resource)
            default:
                break
            }
        }
    }

    /// The vocabularies a resource with this root uses, from its `$schema`.
    private func vocabularies(of schema: JSONValue, inherited: Vocabularies) throws(SchemaCompilationError)
        -> Vocabularies
    {
        guard case .string(let declared)? = schema["$schema"] else { return inherited }
        let uri = URIReference(declared).withoutFragment.description
        if uri == Self.metaSchema2020 { return .all }
        if let draft = Self.otherDraft(uri) {
            throw SchemaCompilationError(
                keywordLocation: JSONPointer(tokens: ["$schema"]),
                message: "$schema names \(draft) (\(declared)); this validator implements draft 2020-12 only"
            )
        }
        let meta = try resource(for: URIReference(uri), at: JSONPointer(tokens: ["$schema"]))
        let metaDocument = documents[resources[meta].location.document]
        guard case .object(let vocabulary)? = metaDocument["$vocabulary"] else {
            return try vocabularies(of: metaDocument, inherited: .all)
        }
        return try Vocabularies(declared: vocabulary.map { ($0.key, $0.value.boolValue ?? false) })
    }

    static func otherDraft(_ uri: String) -> String? {
        let drafts = [
            "draft-03": "draft 3", "draft-04": "draft 4", "draft-06": "draft 6", "draft-07": "draft 7",
            "draft/2019-09": "draft 2019-09", "draft/next": "the unreleased next draft",
        ]
        guard uri.contains("json-schema.org") else { return nil }
        return drafts.first { uri.contains($0.key) }?.value
    }

    /// The resource with this URI, asking the resolver for its document when none is known yet.
    private func resource(for uri: URIReference, at location: JSONPointer) throws(SchemaCompilationError) -> Int {
        let key = uri.withoutFragment.description
        if let known = resourceByURI[key] { return known }
        guard let document = options.resolver?(key) else {
            throw SchemaCompilationError(
                keywordLocation: location,
                message: "no schema with the URI \(key) is known (schemas are never fetched from the network)"
            )
        }
        try register(document, retrievedFrom: URIReference(key))
        guard let loaded = resourceByURI[key] else {
            throw SchemaCompilationError(
                keywordLocation: location, message: "the document for \(key) does not declare it")
        }
        return loaded
    }

    // MARK: Compiling

    private func node(at location: Location) -> Int {
        if let index = nodeAt[location] { return index }
        nodes.append(CompiledNode(body: .always, resource: resourceIndex(of: location)))
        let index = nodes.count - 1
        nodeAt[location] = index
        worklist.append((index, location))
        return index
    }

    private func drain() throws(SchemaCompilationError) {
        while let (index, location) = worklist.popLast() {
            nodes[index].body = try compileBody(at: location, resource: nodes[index].resource)
        }
    }

    /// The resource a location belongs to: its own, or its nearest scanned ancestor's.
    private func resourceIndex(of location: Location) -> Int {
        var pointer = location.pointer
        while true {
            if let resource = resourceAt[Location(document: location.document, pointer: pointer)] { return resource }
            if pointer.isEmpty { return 0 }
            pointer.removeLast()
        }
    }

    private func value(at location: Location) -> JSONValue? {
        JSONPointer(tokens: location.pointer).resolve(in: documents[location.document])
    }

    private func compileBody(at location: Location, resource: Int) throws(SchemaCompilationError) -> CompiledNode.Body {
        let path = JSONPointer(tokens: location.pointer)
        guard let schema = value(at: location) else {
            throw SchemaCompilationError(keywordLocation: path, message: "no schema at this location")
        }
        switch schema {
        case .bool(let bool):
            return bool ? .always : .never
        case .object(let object):
            var builder = KeywordBuilder(
                compiler: self, object: object, location: location, resource: resources[resource])
            return .keywords(try builder.build())
        default:
            throw SchemaCompilationError(
                keywordLocation: path, message: "a schema must be an object or a boolean, not \(schema.typeName)")
        }
    }

    /// A subschema's node.
    func subschema(_ location: Location) -> Int {
        node(at: location)
    }

    /// The node a `$ref`/`$dynamicRef` names, and whether its fragment named a dynamic anchor of that resource.
    func reference(_ text: String, base: URIReference, at path: JSONPointer) throws(SchemaCompilationError) -> (
        node: Int, dynamicAnchor: String?
    ) {
        let uri = URIReference(text).resolved(against: base)
        let resource = try self.resource(for: uri, at: path)
        let fragment = URIReference.percentDecoded(uri.fragment ?? "")
        let target: Location
        var dynamicAnchor: String?
        if fragment.isEmpty {
            target = resources[resource].location
        } else if fragment.hasPrefix("/") {
            guard let pointer = JSONPointer(fragment) else {
                throw SchemaCompilationError(keywordLocation: path, message: "\(text) has a malformed JSON Pointer")
            }
            target = Location(
                document: resources[resource].location.document,
                pointer: resources[resource].location.pointer + pointer.tokens)
            guard value(at: target) != nil else {
                throw SchemaCompilationError(keywordLocation: path, message: "\(text) points at nothing")
            }
        } else if let anchor = resources[resource].anchors[fragment] {
            target = anchor
            if resources[resource].dynamicAnchors[fragment] != nil { dynamicAnchor = fragment }
        } else {
            throw SchemaCompilationError(
                keywordLocation: path, message: "\(text): no anchor \"\(fragment)\" in \(uri.withoutFragment)")
        }
        return (node(at: target), dynamicAnchor)
    }

    func noteUnevaluated() {
        usesUnevaluated = true
    }

    func noteDynamicScope() {
        usesDynamicScope = true
    }
}

/// A schema that cannot be compiled: malformed, or using a keyword this validator does not implement.
package struct SchemaCompilationError: Error, Sendable, Hashable, CustomStringConvertible {
    package let keywordLocation: JSONPointer
    package let message: String

    package init(keywordLocation: JSONPointer, message: String) {
        self.keywordLocation = keywordLocation
        self.message = message
    }

    package var description: String { "\(keywordLocation): \(message)" }
}
