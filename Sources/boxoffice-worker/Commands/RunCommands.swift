import ArgumentParser
import BoxOfficeWorker

/// The limits of a run's scan, as `run` and `compare` take them.
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The last day to look at (default: yesterday; offline: 2024-06-30).", valueName: "date"))
    var through: String?

    @Option(help: "Days from the opening to look at (after 14 before it, for previews); default 150.")
    var days: Int?

    @Option(help: "At most this many KOBIS calls; without it a scan the quota cannot give is refused first.")
    var maxCalls: Int?

    @Flag(
        inversion: .prefixedNo,
        help: "Also ask the 다양성 (--diversity) or 상업 (--no-diversity) list on days the film is in no other.")
    var diversity: Bool?

    @Flag(help: "Bypass the cache and refresh it.")
    var refresh = false

    var limits: RunLimits {
        RunLimits(through: through, days: days, maxCalls: maxCalls, diversity: diversity, refresh: refresh)
    }
}

/// `boxoffice-worker run TITLE|CODE`: a film's run, charted.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "A film's run from the daily lists: its chart, the day of each 100만 step, the second-week drop.",
        discussion: CommandFlags.moreFlags)

    @Argument(help: "The film's title (several words are one title), or its KOBIS movie code.")
    var words: [String]

    @OptionGroup var options: RunOptions
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (film, limits, display) = (words.joined(separator: " "), options.limits, self.display.choice)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.run(film, limits: limits, display: display)
        }
    }
}

/// `boxoffice-worker compare A B …`: 2 to 8 films' runs aligned by day since opening.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare", abstract: "2 to 8 films' runs side by side, by day since opening (일차 기준).",
        discussion: CommandFlags.moreFlags)

    @Argument(help: "The films: each a title (quoted when it has spaces) or a KOBIS movie code.")
    var films: [String]

    @OptionGroup var options: RunOptions
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (films, limits, display) = (self.films, options.limits, self.display.choice)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.compare(films, limits: limits, display: display)
        }
    }
}
