import ArgumentParser
import BoxOfficeCore
import BoxOfficeWorker

/// `boxoffice-worker daily [DATE]`: a day's top 10 as the apps showed it, or a range of days for a job.
struct DailyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily", abstract: "A day's box office as a list or a grid; --from/--to exports a range.")

    @OptionGroup var options: BoxOfficeOptions
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        let options = self.options
        let display = self.display
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            let filters = try options.filters()
            if let days = try options.range(today: session.today) {
                guard display.format != .text else {
                    throw CLIDate.Invalid(description: "a range is exported as --format csv, ndjson or json")
                }
                let requests = days.map {
                    BoxOfficeRequest(span: .daily($0), limit: options.limit, filters: filters, refresh: options.refresh)
                }
                return await session.export(
                    requests, format: display.format, excel: display.excel, maxCalls: options.maxCalls)
            }
            let date = try options.date.map { text throws(CLIDate.Invalid) in
                try CLIDate.parse(text, today: session.today)
            }
            if let date, date == session.today {
                throw CLIDate.Invalid(description: "today's box office does not exist yet: the latest day is yesterday")
            }
            let request = BoxOfficeRequest(
                span: .daily(date), limit: options.limit, filters: filters, refresh: options.refresh)
            return await session.boxOffice(
                request, include: options.include, format: display.format, layout: options.layout, excel: display.excel)
        }
    }
}
