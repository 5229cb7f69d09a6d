import ArgumentParser
import BoxOfficeWorker

// swift-argument-parser's property wrappers made from a row of the flag table (``WorkerFlag``): the long name, the
// help line, the value name and the default come from the row, so `@Option(WorkerFlag.maxInFlight) var maxInFlight:
// Int` says only which row and which type. The wrappers stay swift-argument-parser's own, because `--help`,
// `--help-hidden`, its errors, the completion scripts and the manual pages are made from them.
//
// A property whose type is not the row's stops the process naming the flag, at the first parse (the flag table
// tests parse every row).

extension Option where Value == Int {
    /// An integer option, `--name <n>`, with the row's default.
    init(_ flag: WorkerFlag) {
        self.init(wrappedValue: flag.defaultInt, name: .customLong(flag.name), help: flag.argumentHelp)
    }
}

extension Option where Value == Double {
    /// A number option, `--name <seconds>`, with the row's default.
    init(_ flag: WorkerFlag) {
        self.init(wrappedValue: flag.defaultDouble, name: .customLong(flag.name), help: flag.argumentHelp)
    }
}

extension Option where Value == String? {
    /// A text option, `--name <value>`, nil when not given (the environment or a built-in choice decides later).
    init(_ flag: WorkerFlag) {
        precondition(flag.default == .text(nil), "\(flag) does not take a text")
        self.init(name: .customLong(flag.name), help: flag.argumentHelp)
    }
}

extension Flag where Value == Bool {
    /// A flag that takes no value, `--name`: on when given.
    init(_ flag: WorkerFlag) {
        self.init(wrappedValue: flag.defaultBool, name: .customLong(flag.name), help: flag.argumentHelp)
    }
}

extension WorkerFlag {
    /// The row's help line and value name, as swift-argument-parser shows them.
    var argumentHelp: ArgumentHelp {
        ArgumentHelp(help, valueName: valueName)
    }
}
