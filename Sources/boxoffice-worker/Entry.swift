import ArgumentParser
import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeWorker
import FoundationEssentials
import Glibc
import Logging

/// The process entry: the worker's own flags in their plain forms (after `mcp` for the MCP face) are read by a
/// table (``WorkerOptions/quickParse(_:)``, no reflection on the start path), and so is `daily` in its everyday
/// forms (``QuickDaily``); anything else (help, version, errors, every other command) goes through
/// swift-argument-parser.
@main
enum Entry {
    /// The process's environment, read once. A global, not a local of `main`: a one-shot command calls `exit` from
    /// a continuation on a pool thread, where LeakSanitizer finds nothing that points into the async main's frame,
    /// and reported the dictionary a local held there as leaked (the AddressSanitizer tour, `daily … --format
    /// html`); a global it reads.
    private static let environment = ProcessEnvironment.read()

    static func main() async {
        let environment = Self.environment
        HeapPolicy.chosen(environment: environment)?.apply()
        var arguments = CommandLine.arguments.dropFirst()
        if arguments.first == DailyCommand.configuration.commandName,
            let quick = QuickDaily.parse(arguments.dropFirst()),
            (try? WorkerFlags.check(quick.options, logLevel: quick.options.logLevel)) != nil
        {
            exit(await quick.run())
        }
        var face = WorkerSession.ServedProtocol.jsonRPC
        if arguments.first == "mcp" {
            face = .mcp
            arguments = arguments.dropFirst()
        } else if arguments.first == "pipe" {
            let (method, rest) = PipeCommand.method(in: arguments.dropFirst())
            face = .pipe(method: method)
            arguments = rest
        }
        guard let options = WorkerOptions.quickParse(arguments) else {
            refuseServingFlags(arguments)
            await parseAndRun()
            return
        }
        let configuration: WorkerConfiguration
        do {
            configuration = try options.configuration(environment: environment)
            // An empty variable is the default, info: WorkerFlags.level reads empty as unset.
            guard let level = WorkerFlags.level(options.logLevel ?? environment["BOXOFFICE_LOG_LEVEL"], face: face)
            else {
                throw WorkerOptions.Invalid(description: "the log level is not one of \(WorkerFlags.levels)")
            }
            WorkerFlags.bootstrapLogging(level)
        } catch {
            // The same message and exit code as swift-argument-parser gives for the same mistake.
            await parseAndRun()
            return
        }
        TerminalHint.showIfInteractive(face)
        exit(await WorkerSession.serve(face, configuration, logger: Logger(label: "boxoffice-worker")))
    }

    /// A serving flag with a one-shot command, before or after it, is a usage error. swift-argument-parser would
    /// accept it (the root command's flags may come on either side of a subcommand) and the command would ignore it.
    static func refuseServingFlags(_ arguments: ArraySlice<String>) {
        let words = arguments.prefix { $0 != "--" }
        // The subcommand: the first word that is not a flag or a flag's value.
        var command: String?
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index = words.index(after: index)
            guard word.hasPrefix("-") else {
                command = word
                break
            }
            if !word.contains("="), WorkerFlag.named(word)?.takesValue == true, index < words.endIndex {
                index = words.index(after: index)
            }
        }
        guard let command, command != MCPCommand.configuration.commandName,
            command != PipeCommand.configuration.commandName,
            BoxOfficeWorkerCommand.configuration.subcommands.contains(where: { $0.configuration.commandName == command }
            )
        else { return }
        let flags = words.compactMap { WorkerFlag.named($0.prefix { $0 != "=" }) }
        guard let flag = flags.first(where: { $0.group.inCommands == .refused }) else { return }
        StandardError.write(
            "boxoffice-worker: \(flag) is a flag of the worker (JSON-RPC and mcp), not of \(command) (see --help)\n"
        )
        exit(64)
    }

    /// swift-argument-parser's parse and run, with its usage errors as one line (`boxoffice-worker: …`, exit 64);
    /// help, version and completion scripts print as it prints them.
    static func parseAndRun() async {
        do {
            var command = try BoxOfficeWorkerCommand.parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let ended as CommandRunner.Ended {
            exit(ended.code)
        } catch {
            let code = BoxOfficeWorkerCommand.exitCode(for: error)
            guard code.rawValue == 64 else { BoxOfficeWorkerCommand.exit(withError: error) }
            let message =
                BoxOfficeWorkerCommand.message(for: error).split(separator: "\n").first.map(String.init)
                ?? "usage error"
            let line = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
            StandardError.write("boxoffice-worker: \(line) (see --help)\n")
            exit(64)
        }
    }
}
