/// The methods a server answers, by name. Built once before serving; never changes.
public struct MethodRegistry: Sendable {
    struct Entry: Sendable {
        let method: any RPCMethod
        let immediate: (any ImmediateRPCMethod)?
    }

    private let entries: [String: Entry]
    /// The methods in registration order, for `rpc.discover`.
    public let methods: [any RPCMethod]

    /// - Precondition: names are unique.
    public init(_ methods: [any RPCMethod]) {
        var entries: [String: Entry] = [:]
        for method in methods {
            precondition(entries[method.name] == nil, "method \(method.name) registered twice")
            entries[method.name] = Entry(method: method, immediate: method.immediate)
        }
        self.entries = entries
        self.methods = methods
    }

    subscript(name: String) -> Entry? {
        entries[name]
    }

    public func method(named name: String) -> (any RPCMethod)? {
        entries[name]?.method
    }
}
