extension WorkerOptions {
    /// One worker flag: its name without dashes, whether it takes a value, and how the value is stored.
    private struct Flag: Sendable {
        let name: String
        let takesValue: Bool
        let apply: @Sendable (inout WorkerOptions, String) -> Bool
        /// How a long-lived face serves (concurrency, order, limits, draining, diagnostics): nothing a one-shot
        /// command does.
        var serving = false
    }

    private static func number<T: LosslessStringConvertible & SendableMetatype>(
        _ keyPath: any WritableKeyPath<WorkerOptions, T> & Sendable
    ) -> @Sendable (inout WorkerOptions, String) -> Bool {
        { options, text in
            guard let value = T(text) else { return false }
            options[keyPath: keyPath] = value
            return true
        }
    }

    private static func text(_ keyPath: any WritableKeyPath<WorkerOptions, String?> & Sendable)
        -> @Sendable (inout WorkerOptions, String) -> Bool
    {
        { options, text in
            options[keyPath: keyPath] = text
            return true
        }
    }

    private static func on(_ keyPath: any WritableKeyPath<WorkerOptions, Bool> & Sendable)
        -> @Sendable (inout WorkerOptions, String) -> Bool
    {
        { options, _ in
            options[keyPath: keyPath] = true
            return true
        }
    }

    /// Every flag of the worker face, as `boxoffice-worker --help` lists them (a test holds the two lists equal).
    private static let flags: [String: Flag] = Dictionary(
        uniqueKeysWithValues: [
            Flag(name: "max-in-flight", takesValue: true, apply: number(\.maxInFlight), serving: true),
            Flag(name: "ordered", takesValue: false, apply: on(\.ordered), serving: true),
            Flag(name: "max-line-bytes", takesValue: true, apply: number(\.maxLineBytes), serving: true),
            Flag(name: "max-batch", takesValue: true, apply: number(\.maxBatch), serving: true),
            Flag(name: "drain-seconds", takesValue: true, apply: number(\.drainSeconds), serving: true),
            Flag(name: "offline", takesValue: false, apply: on(\.offline)),
            Flag(name: "kobis-base-url", takesValue: true, apply: text(\.kobisBaseURL)),
            Flag(name: "kakao-base-url", takesValue: true, apply: text(\.kakaoBaseURL)),
            Flag(name: "timeout", takesValue: true, apply: number(\.timeout)),
            Flag(name: "deadline", takesValue: true, apply: number(\.deadline)),
            Flag(name: "allow-private-downloads", takesValue: false, apply: on(\.allowPrivateDownloads)),
            Flag(name: "allow-shared-cache-dir", takesValue: false, apply: on(\.allowSharedCacheDirectory)),
            Flag(name: "cache-dir", takesValue: true, apply: text(\.cacheDirectory)),
            Flag(name: "no-cache", takesValue: false, apply: on(\.noCache)),
            Flag(name: "kobis-daily-limit", takesValue: true, apply: number(\.kobisDailyLimit)),
            Flag(name: "database-url", takesValue: true, apply: text(\.databaseURL)),
            Flag(name: "lease-seconds", takesValue: true, apply: number(\.leaseSeconds)),
            Flag(name: "today", takesValue: true, apply: text(\.today)),
            Flag(name: "diagnostics", takesValue: false, apply: on(\.diagnostics), serving: true),
            Flag(name: "log-level", takesValue: true, apply: text(\.logLevel)),
        ].map { ($0.name, $0) })

    /// The names of the serving flags, with their dashes: the worker's and `mcp`'s, refused by one-shot commands.
    package static var servingFlagNames: [String] { flags.values.filter(\.serving).map { "--" + $0.name }.sorted() }

    /// Whether `flag` (with its dashes) is a worker flag that takes a value (`--cache-dir DIR`).
    package static func takesValue(_ flag: String) -> Bool {
        flag.hasPrefix("--") && flags[String(flag.dropFirst(2))]?.takesValue == true
    }

    /// The names of every flag the quick parse knows, with their dashes.
    package static var quickFlagNames: [String] { flags.keys.map { "--" + $0 }.sorted() }

    /// The options from `arguments` when every one is a worker flag in a plain form (`--name`, `--name value`,
    /// `--name=value`) with a value of the right type; nil for anything else (help, version, a subcommand, an
    /// unknown flag, a bad value), which goes to swift-argument-parser for its full handling and messages.
    ///
    /// Why not always swift-argument-parser: it builds its argument sets by reflection (`Mirror`) and dynamic casts,
    /// three times per parse, which was about a fifth of the worker's cold start; a host spawns the worker with the
    /// same few flags every time, and this path reads them with a table.
    package static func quickParse(_ arguments: some Collection<String>) -> WorkerOptions? {
        var options = WorkerOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            arguments.formIndex(after: &index)
            guard argument.hasPrefix("--") else { return nil }
            var name = Substring(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            guard let flag = flags[String(name)] else { return nil }
            if flag.takesValue {
                if value == nil {
                    guard index < arguments.endIndex else { return nil }
                    value = arguments[index]
                    arguments.formIndex(after: &index)
                }
            } else if value != nil {
                return nil
            }
            guard flag.apply(&options, value ?? "") else { return nil }
        }
        return options
    }
}
