extension WorkerOptions {
    /// The options from `arguments` when every one is a worker flag in a plain form (`--name`, `--name value`,
    /// `--name=value`) with a value of the right type; nil for anything else (help, version, a subcommand, an
    /// unknown flag, a bad value), which goes to swift-argument-parser for its full handling and messages.
    ///
    /// Why not always swift-argument-parser: it builds its argument sets by reflection (`Mirror`) and dynamic casts,
    /// three times per parse, which was about a fifth of the worker's cold start; a host spawns the worker with the
    /// same few flags every time, and this path reads them with the flag table (``WorkerFlag``), the same table
    /// swift-argument-parser's declarations are made from.
    package static func quickParse(_ arguments: some Collection<String>) -> WorkerOptions? {
        var options = WorkerOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            arguments.formIndex(after: &index)
            var name = Substring(argument)
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            guard let flag = WorkerFlag.named(name) else { return nil }
            if flag.takesValue {
                if value == nil {
                    guard index < arguments.endIndex else { return nil }
                    value = arguments[index]
                    arguments.formIndex(after: &index)
                }
            } else if value != nil {
                return nil
            }
            guard flag.apply(value ?? "", to: &options) else { return nil }
        }
        return options
    }
}
