import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker weekly [DATE] [--period …]`: a finished week's, weekend's or weekdays' top 10, or a range of
/// periods for a job.
struct WeeklyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weekly",
        abstract:
            "A week's, weekend's or weekdays' box office (the period containing DATE); --from/--to exports a range.",
        discussion: CommandFlags.moreFlags)

    @Option(help: "week (Mon–Sun), weekend (Fri–Sun) or weekdays (Mon–Thu).")
    var period = "weekend"

    @OptionGroup var options: BoxOfficeFlags
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (options, display, period) = (self.options, self.display.choice, self.period)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.weekly(options, period: period, display: display)
        }
    }
}
