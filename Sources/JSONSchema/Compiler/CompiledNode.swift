import JSONCore

/// One compiled (sub)schema: its keywords in evaluation order, and the resource it belongs to.
struct CompiledNode: Sendable {
    enum Body: Sendable {
        case always
        case never
        case keywords([Keyword])
    }

    var body: Body
    /// Index of the schema resource (the nearest `$id`) this node belongs to, for the dynamic scope.
    var resource: Int
}
