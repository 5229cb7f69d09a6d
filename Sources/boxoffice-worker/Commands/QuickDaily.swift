import ArgumentParser
import BoxOfficeViews
import BoxOfficeWorker

/// `daily` in its everyday forms, read by a table instead of by swift-argument-parser, whose reflection over the
/// command's flags (building its argument sets, a dynamic cast per property) was 63 % of the daily screen's
/// instructions (issue 43): a day, `--limit`, `--korean`/`--foreign`, `--layout`, `--format`, `--color`, and the
/// worker's data and upstream flags by ``WorkerFlag``'s table, as ``WorkerOptions/quickParse(_:)`` reads them.
///
/// Anything else (help, a range, a flag this does not know, a value it cannot read, a serving flag) gives nil and
/// goes through swift-argument-parser as before, which says what is wrong: the quick path never has a message of
/// its own. QuickDailyTests holds what it makes to what swift-argument-parser makes from the same words.
struct QuickDaily {
    var flags: BoxOfficeFlags
    var display: CLIDisplay
    var color: TerminalStyle.Choice
    var options: WorkerOptions

    /// The words after `daily`, or nil when any of them is not one this reads.
    static func parse(_ arguments: some Collection<String>) -> QuickDaily? {
        var date: String?
        var limit = 10
        var (korean, foreign) = (false, false)
        var layout = ListLayout.list
        var format = CLIFormat.text
        var color = TerminalStyle.Choice.auto
        var options = WorkerOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            arguments.formIndex(after: &index)
            guard argument.hasPrefix("-") else {
                // One day at most, as the command's one positional argument.
                guard date == nil else { return nil }
                date = argument
                continue
            }
            var name = Substring(argument)
            var given: String?
            if let equals = name.firstIndex(of: "=") {
                given = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            // The flag's value: after `=`, or the next word.
            func value() -> String? {
                if let given { return given }
                guard index < arguments.endIndex else { return nil }
                defer { arguments.formIndex(after: &index) }
                return arguments[index]
            }
            switch name {
            case "--limit":
                guard let number = value().flatMap({ Int($0) }) else { return nil }
                limit = number
            case "--korean", "--foreign":
                guard given == nil else { return nil }
                if name == "--korean" { korean = true } else { foreign = true }
            case "--layout":
                guard let chosen = value().flatMap(ListLayout.init(rawValue:)) else { return nil }
                layout = chosen
            case "--format":
                guard let chosen = value().flatMap(CLIFormat.init(rawValue:)) else { return nil }
                format = chosen
            case "--color":
                guard let chosen = value().flatMap(TerminalStyle.Choice.init(rawValue:)) else { return nil }
                color = chosen
            default:
                guard let flag = WorkerFlag.named(name), flag.group.inCommands != .refused else { return nil }
                if flag.takesValue {
                    guard let text = value(), flag.apply(text, to: &options) else { return nil }
                } else {
                    guard given == nil, flag.apply("", to: &options) else { return nil }
                }
            }
        }
        return QuickDaily(
            flags: BoxOfficeFlags(date: date, limit: limit, korean: korean, foreign: foreign, layout: layout),
            display: CLIDisplay(format: format, excel: false), color: color, options: options)
    }

    /// Runs the command as ``DailyCommand`` does, and gives the exit code.
    func run() async -> Int32 {
        let (flags, display) = (self.flags, self.display)
        do {
            try await CommandRunner.run(options, logLevelText: options.logLevel, color: color) { session in
                await session.daily(flags, display: display)
            }
            return 0
        } catch let ended as CommandRunner.Ended {
            return ended.code
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            return 70
        }
    }
}
