/// One flag of the worker: its name, kind, default, help, value name and group, written once, in the table
/// (`WorkerFlag+Table.swift`).
///
/// Why one table: the worker reads its flags two ways (a table on the start path, swift-argument-parser for help,
/// errors, completion scripts and manual pages), and a flag written down in each place, with its default in a third,
/// drifts in name, kind or default without anything failing. So ``WorkerOptions/quickParse(_:)`` reads the table,
/// the executable's swift-argument-parser declarations take their names, help and defaults from it, the defaults of
/// ``WorkerOptions`` and ``WorkerConfiguration`` are read from it, and a test holds both parsers to it row by row.
package struct WorkerFlag: Sendable, CustomStringConvertible {
    /// Which faces take a flag, and which help lists it.
    package enum Group: Sendable {
        /// How the long-lived faces serve (concurrency, order, limits, draining, diagnostics): nothing a one-shot
        /// command does, so it refuses them.
        case serving
        /// Where answers come from and where they are kept: every face and command takes and lists them.
        case data
        /// How upstream calls, poster downloads and a shared store behave: every face and command takes them, but a
        /// one-shot command lists them only under `--help-hidden` (a person at a terminal rarely needs them).
        case upstream

        /// How a one-shot command (`daily`, `movie`, …) treats the group's flags.
        package enum InCommands: Sendable {
            /// A usage error (exit 64): swift-argument-parser would take the flag and the command ignore it.
            case refused
            /// Taken, and listed in the command's help.
            case listed
            /// Taken, and listed only under `--help-hidden`.
            case hidden
        }

        package var inCommands: InCommands {
            switch self {
            case .serving: .refused
            case .data: .listed
            case .upstream: .hidden
            }
        }
    }

    /// A flag's value with its type: the table's default, and what a parse leaves in ``WorkerOptions``, so a test
    /// can hold both to the same value of the same type.
    package enum Value: Sendable, Hashable, CustomStringConvertible {
        /// A flag that takes no value: given, it is on.
        case flag(Bool)
        case int(Int)
        case double(Double)
        /// Nil when not given: the environment or a built-in choice decides (``WorkerOptions/configuration(environment:)``).
        case text(String?)

        package var description: String {
            switch self {
            case .flag(let on): "\(on)"
            case .int(let value): "\(value)"
            case .double(let value): "\(value)"
            case .text(let text): text.map { "\"\($0)\"" } ?? "nil"
            }
        }
    }

    /// The long name without its dashes (`max-in-flight`).
    package let name: String
    package let group: Group
    /// The value with no flag given; a presence flag's is `.flag(false)`, a text's `.text(nil)`.
    package let `default`: Value
    /// The placeholder help shows for the value (`--max-in-flight <n>`); nil for a flag that takes none.
    package let valueName: String?
    /// The one line help shows.
    package let help: String
    private let read: @Sendable (WorkerOptions) -> Value
    private let store: @Sendable (inout WorkerOptions, String) -> Bool

    /// `--name`, as typed and as messages say it.
    package var description: String { "--" + name }

    /// Whether the flag takes a value (`--cache-dir DIR`), or is on by its presence (`--ordered`).
    package var takesValue: Bool {
        if case .flag = self.default { return false }
        return true
    }

    /// The flag's value in `options`.
    package func value(in options: WorkerOptions) -> Value {
        read(options)
    }

    /// Sets the flag in `options` from `argument`, its value as typed (ignored by a flag that takes none).
    /// - Returns: false, and `options` unchanged, when `argument` is not a value of the flag's type.
    package func apply(_ argument: String, to options: inout WorkerOptions) -> Bool {
        store(&options, argument)
    }

    /// The flag `argument` names with its dashes (`--cache-dir`), if it is one of the table's.
    package static func named(_ argument: some StringProtocol) -> WorkerFlag? {
        guard argument.hasPrefix("--") else { return nil }
        return byName[String(argument.dropFirst(2))]
    }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

// The typed defaults, for the declarations that need a value of the property's type (``WorkerOptions``'s stored
// properties, ``WorkerConfiguration``'s parameters, swift-argument-parser's property wrappers). Asking a row for a
// type it does not have is a mistake in the code, not in the input; the first parse meets it (the flag table tests
// parse every row both ways), so it stops the process with the flag's name.
extension WorkerFlag {
    package var defaultBool: Bool {
        guard case .flag(let value) = self.default else { preconditionFailure("\(self) is not a presence flag") }
        return value
    }

    package var defaultInt: Int {
        guard case .int(let value) = self.default else { preconditionFailure("\(self) does not take an integer") }
        return value
    }

    package var defaultDouble: Double {
        guard case .double(let value) = self.default else { preconditionFailure("\(self) does not take a number") }
        return value
    }
}

// How a row is made: one function per kind, so a row says its kind once and the reading, storing and default of the
// value follow from the accessors' type. Accessors are closures, not key paths: a key path is instantiated by the
// runtime the first time it is used, and the start path builds every row (its defaults), which made twenty key paths
// a measurable part of a cold start.
extension WorkerFlag {
    /// A flag that takes no value: on when given, off by default.
    static func flag(
        _ name: String, _ group: Group, _ get: @escaping @Sendable (WorkerOptions) -> Bool,
        _ set: @escaping @Sendable (inout WorkerOptions, Bool) -> Void, help: String
    ) -> WorkerFlag {
        WorkerFlag(
            name: name, group: group, default: .flag(false), valueName: nil, help: help,
            read: { .flag(get($0)) },
            store: { options, _ in
                set(&options, true)
                return true
            })
    }

    static func int(
        _ name: String, _ group: Group, _ get: @escaping @Sendable (WorkerOptions) -> Int,
        _ set: @escaping @Sendable (inout WorkerOptions, Int) -> Void, default value: Int, valueName: String,
        help: String
    ) -> WorkerFlag {
        number(name, group, get, set, default: value, valueName: valueName, help: help) { .int($0) }
    }

    static func double(
        _ name: String, _ group: Group, _ get: @escaping @Sendable (WorkerOptions) -> Double,
        _ set: @escaping @Sendable (inout WorkerOptions, Double) -> Void, default value: Double, valueName: String,
        help: String
    ) -> WorkerFlag {
        number(name, group, get, set, default: value, valueName: valueName, help: help) { .double($0) }
    }

    /// A text, nil by default; what it means is checked later, with the environment (a URL, a date, a level).
    static func text(
        _ name: String, _ group: Group, _ get: @escaping @Sendable (WorkerOptions) -> String?,
        _ set: @escaping @Sendable (inout WorkerOptions, String?) -> Void, valueName: String, help: String
    ) -> WorkerFlag {
        WorkerFlag(
            name: name, group: group, default: .text(nil), valueName: valueName, help: help,
            read: { .text(get($0)) },
            store: { options, text in
                set(&options, text)
                return true
            })
    }

    /// A number read as Swift reads it (`Int("64")`, `Double("0.5")`), as swift-argument-parser does too.
    private static func number<T: LosslessStringConvertible & Sendable>(
        _ name: String, _ group: Group, _ get: @escaping @Sendable (WorkerOptions) -> T,
        _ set: @escaping @Sendable (inout WorkerOptions, T) -> Void, default value: T, valueName: String, help: String,
        _ wrap: @escaping @Sendable (T) -> Value
    ) -> WorkerFlag {
        WorkerFlag(
            name: name, group: group, default: wrap(value), valueName: valueName, help: help,
            read: { wrap(get($0)) },
            store: { options, text in
                guard let number = T(text) else { return false }
                set(&options, number)
                return true
            })
    }
}
