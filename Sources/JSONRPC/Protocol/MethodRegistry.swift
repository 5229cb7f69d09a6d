/// The methods a server answers, by name. Built once before serving; never changes.
package struct MethodRegistry: Sendable {
    private let entries: [String: any RPCMethod]
    /// The methods in registration order, for `rpc.discover`.
    package let methods: [any RPCMethod]

    /// - Precondition: names are unique.
    package init(_ methods: [any RPCMethod]) {
        var entries: [String: any RPCMethod] = [:]
        for method in methods {
            precondition(entries[method.name] == nil, "method \(method.name) registered twice")
            entries[method.name] = method
        }
        self.entries = entries
        self.methods = methods
    }

    /// The method registered under `name`.
    package func method(named name: String) -> (any RPCMethod)? {
        entries[name]
    }
}
