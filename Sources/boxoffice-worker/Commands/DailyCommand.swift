import ArgumentParser
import BoxOfficeCore
import BoxOfficeWorker

/// `boxoffice-worker daily [DATE]`: a day's top 10 as the apps showed it, or a range of days for a job.
struct DailyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily", abstract: "A day's box office as a list or a grid; --from/--to exports a range.",
        discussion: CommandFlags.moreFlags)

    @OptionGroup var options: BoxOfficeOptions
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let options = self.options
        let display = self.display
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            try await options.run(
                session, display: display, span: { .daily($0) }, spans: { $0.map { .daily($0) } },
                check: { day throws(CLIDate.Invalid) in
                    if day == session.today {
                        throw CLIDate.Invalid(
                            description: "today's box office does not exist yet: the latest day is yesterday")
                    }
                })
        }
    }
}
