import ArgumentParser
import BoxOfficeCore
import BoxOfficeWorker

extension WeekPeriod: ExpressibleByArgument {}

/// `boxoffice-worker weekly [DATE] [--period …]`: a finished week's, weekend's or weekdays' top 10, or a range of
/// periods for a job.
struct WeeklyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weekly",
        abstract:
            "A week's, weekend's or weekdays' box office (the period containing DATE); --from/--to exports a range.",
        discussion: CommandFlags.moreFlags)

    @Option(help: "week (Mon–Sun), weekend (Fri–Sun) or weekdays (Mon–Thu).")
    var period: WeekPeriod = .weekend

    @OptionGroup var options: BoxOfficeOptions
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let options = self.options
        let display = self.display
        let period = self.period
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            try await options.run(
                session, display: display, span: { .weekly($0, period) },
                spans: { days in
                    // The periods that contain the days and have ended, each once.
                    var ends: [CalendarDate] = []
                    for day in days {
                        let end = period.range(containing: day).end
                        if end < session.today, ends.last != end { ends.append(end) }
                    }
                    return ends.map { .weekly($0, period) }
                },
                check: { day throws(CLIDate.Invalid) in
                    if period.range(containing: day).end >= session.today {
                        throw CLIDate.Invalid(description: "the \(period.rawValue) containing \(day) has not ended yet")
                    }
                })
        }
    }
}
