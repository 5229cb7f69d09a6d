import ArgumentParser
import BoxOfficeWorker
import Foundation
import Testing

@testable import boxoffice_worker

/// The flag table (``WorkerFlag``) is the one list of the worker's flags: the quick parser reads it, and
/// swift-argument-parser's declarations take their names, help and defaults from it. These tests hold both parsers to
/// it row by row, in process: the default each gives with no flag, the options each makes of the same non-default
/// value, and what swift-argument-parser shows (names and their order, kind, value name, help, default, and which
/// commands list, hide or refuse the flag).
@Suite("The flag table, the quick parser and swift-argument-parser agree")
struct FlagTableTests {
    /// swift-argument-parser's parse of `arguments` through the declarations of `group` alone (``ServingFlags``,
    /// ``DataFlags`` or ``UpstreamFlags``), copied into options: a flag declared in another group is refused. The
    /// groups have no validation, so the environment plays no part.
    static func argumentParser(_ arguments: [String], group: WorkerFlag.Group) throws -> WorkerOptions {
        var options = WorkerOptions()
        switch group {
        case .serving: try ServingFlags.parse(arguments).apply(to: &options)
        case .data: try DataFlags.parse(arguments).apply(to: &options)
        case .upstream: try UpstreamFlags.parse(arguments).apply(to: &options)
        }
        return options
    }

    /// A value of the flag's type that is not its default, as typed after the flag (none for a presence flag).
    static func otherValue(_ flag: WorkerFlag) -> String? {
        switch flag.default {
        case .flag: nil
        case .int(let value): String(value + 1)
        case .double(let value): String(value + 0.5)
        case .text: "other-\(flag.name)"
        }
    }

    @Test("no flag: both parsers give the table's default, of the same type", arguments: WorkerFlag.all)
    func defaults(_ flag: WorkerFlag) throws {
        let quick = try #require(WorkerOptions.quickParse([String]()))
        let argumentParser = try Self.argumentParser([], group: flag.group)
        #expect(flag.value(in: quick) == flag.default)
        #expect(flag.value(in: argumentParser) == flag.default)
        #expect(flag.value(in: WorkerOptions()) == flag.default)
    }

    @Test(
        "another value, as --name value and --name=value: both parsers make the same options", arguments: WorkerFlag.all
    )
    func otherValues(_ flag: WorkerFlag) throws {
        let forms = Self.otherValue(flag).map { [["\(flag)", $0], ["\(flag)=\($0)"]] } ?? [["\(flag)"]]
        for arguments in forms {
            let quick = try #require(WorkerOptions.quickParse(arguments), "\(arguments)")
            let argumentParser = try Self.argumentParser(arguments, group: flag.group)
            #expect(flag.value(in: quick) != flag.default, "\(arguments)")
            #expect(argumentParser == quick, "\(arguments)")
        }
    }

    /// The faces that serve (the worker, `mcp`, `pipe`): they take every flag of the table.
    static let servingCommands = [MCPCommand.configuration.commandName, PipeCommand.configuration.commandName]

    @Test("the worker, mcp and pipe list the table's flags in its order, each as the table describes it")
    func servingFaces() throws {
        let root = try Self.dump()
        let faces = [root] + (root.subcommands ?? []).filter { Self.servingCommands.contains($0.commandName) }
        #expect(faces.count == 3)
        for face in faces {
            // pipe's METHOD is an argument of its own, not a flag of the table.
            let arguments = (face.arguments ?? []).filter {
                !["help", "version"].contains($0.longName) && $0.kind != "positional"
            }
            #expect(arguments.map { $0.longName ?? "" } == WorkerFlag.all.map(\.name), "\(face.commandName)")
            for (argument, flag) in zip(arguments, WorkerFlag.all) {
                Self.check(argument, describes: flag)
                #expect(argument.shouldDisplay, "\(face.commandName) \(flag)")
            }
        }
    }

    @Test("each one-shot command refuses, lists or hides each flag as its group says")
    func oneShotCommands() throws {
        let commands = (try Self.dump().subcommands ?? []).filter {
            !(Self.servingCommands + ["help"]).contains($0.commandName)
        }
        #expect(commands.count == BoxOfficeWorkerCommand.configuration.subcommands.count - Self.servingCommands.count)
        for command in commands {
            for flag in WorkerFlag.all {
                let argument = command.arguments?.first { $0.longName == flag.name }
                switch flag.group.inCommands {
                case .refused:
                    #expect(argument == nil, "\(command.commandName) \(flag)")
                case .listed, .hidden:
                    let argument = try #require(argument, "\(command.commandName) \(flag)")
                    Self.check(argument, describes: flag)
                    #expect(
                        argument.shouldDisplay == (flag.group.inCommands == .listed), "\(command.commandName) \(flag)")
                }
            }
        }
    }

    /// The refusal of a serving flag with a one-shot command (`Entry.refuseServingFlags`) goes by the same rows.
    @Test("the flags a one-shot command refuses are the serving group")
    func refusedAreServing() {
        let refused = WorkerFlag.all.filter { $0.group.inCommands == .refused }
        #expect(refused.map(\.name) == WorkerFlag.all.filter { $0.group == .serving }.map(\.name))
        #expect(WorkerFlag.named("--max-in-flight")?.name == "max-in-flight")
        #expect(WorkerFlag.named("max-in-flight") == nil && WorkerFlag.named("--bogus") == nil)
    }

    /// One argument as swift-argument-parser describes it, against its row: a flag or an option taking a value with
    /// the row's value name, the row's help line, and the default help shows (none for a flag that is off, nor for
    /// a text that is unset).
    static func check(
        _ argument: ArgumentInfo, describes flag: WorkerFlag, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(argument.kind == (flag.takesValue ? "option" : "flag"), "\(flag)", sourceLocation: sourceLocation)
        if flag.takesValue {
            #expect(argument.valueName == flag.valueName, "\(flag)", sourceLocation: sourceLocation)
        }
        #expect(argument.abstract == flag.help, "\(flag)", sourceLocation: sourceLocation)
        let shown: String? =
            switch flag.default {
            case .flag(let on): on ? "true" : nil
            case .int(let value): String(value)
            case .double(let value): String(value)
            case .text(let text): text
            }
        #expect(argument.defaultValue == shown, "\(flag)", sourceLocation: sourceLocation)
    }

    /// swift-argument-parser's own description of the command tree (what `--experimental-dump-help` prints, and what
    /// its manual pages are made from), the parts these tests read.
    static func dump() throws -> CommandInfo {
        try JSONDecoder().decode(ToolInfo.self, from: Data(BoxOfficeWorkerCommand._dumpHelp().utf8)).command
    }

    struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    struct CommandInfo: Decodable {
        var commandName: String
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?
    }

    struct ArgumentInfo: Decodable, Equatable {
        struct Name: Decodable, Equatable {
            var kind: String
            var name: String
        }
        var kind: String
        var shouldDisplay: Bool
        var names: [Name]?
        var valueName: String?
        var defaultValue: String?
        var abstract: String?

        var longName: String? { names?.first { $0.kind == "long" }?.name }
    }
}
