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
            "A week's, weekend's or weekdays' box office (the period containing DATE); --from/--to exports a range.")

    @Option(help: "week (Mon–Sun), weekend (Fri–Sun) or weekdays (Mon–Thu).")
    var period: WeekPeriod = .weekend

    @OptionGroup var options: BoxOfficeOptions
    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        let options = self.options
        let display = self.display
        let period = self.period
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            let filters = try options.filters()
            if let days = try options.range(today: session.today) {
                guard display.format != .text else {
                    throw CLIDate.Invalid(description: "a range is exported as --format csv, ndjson or json")
                }
                let latest = session.today.adding(days: -1)
                var ends: [CalendarDate] = []
                for day in days {
                    let end = period.range(containing: day).end
                    if end <= latest, ends.last != end { ends.append(end) }
                }
                let requests = ends.map {
                    BoxOfficeRequest(
                        span: .weekly($0, period), limit: options.limit, filters: filters, refresh: options.refresh)
                }
                return await session.export(
                    requests, format: display.format, excel: display.excel, maxCalls: options.maxCalls)
            }
            let date = try options.date.map { text throws(CLIDate.Invalid) in
                try CLIDate.parse(text, today: session.today)
            }
            if let date, period.range(containing: date).end >= session.today {
                throw CLIDate.Invalid(description: "the \(period.rawValue) containing \(date) has not ended yet")
            }
            let request = BoxOfficeRequest(
                span: .weekly(date, period), limit: options.limit, filters: filters, refresh: options.refresh)
            return await session.boxOffice(
                request, include: options.include, format: display.format, layout: options.layout, excel: display.excel)
        }
    }
}
