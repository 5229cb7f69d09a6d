import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker daily [DATE]`: a day's top 10 as the apps showed it, or a range of days for a job.
struct DailyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily", abstract: "A day's box office as a list or a grid; --from/--to exports a range.",
        discussion: CommandFlags.moreFlags)

    @OptionGroup var options: BoxOfficeFlags
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (options, display) = (self.options, self.display.choice)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.daily(options, display: display)
        }
    }
}
