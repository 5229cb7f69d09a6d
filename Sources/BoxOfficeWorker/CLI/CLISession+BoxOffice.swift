import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import FoundationEssentials
import Glibc
import JSONCore
import JSONRPC

extension CLISession {
    /// `daily`: a day's box office (a list or a grid, or the method's result as data), or a range of days exported.
    package func daily(_ flags: BoxOfficeFlags, display: CLIDisplay) async -> Int32 {
        await boxOffice(flags, display: display, method: methods.daily, period: nil) { days in days }
    }

    /// `weekly`: the period containing the day, or the finished periods of a range of days.
    package func weekly(_ flags: BoxOfficeFlags, period text: String, display: CLIDisplay) async -> Int32 {
        guard let period = WeekPeriod(rawValue: text) else {
            return fail(CLIRefusal("\"\(text)\" is not a period: week, weekend or weekdays"))
        }
        return await boxOffice(flags, display: display, method: methods.weekly, period: period) { days in
            // The periods that contain the days and have ended, each once, by their last day.
            var ends: [CalendarDate] = []
            for day in days {
                let end = period.range(containing: day).end
                if end < today, ends.last != end { ends.append(end) }
            }
            return ends
        }
    }

    /// One box office through `method`, or with --from/--to a range export of the days `periods` picks.
    private func boxOffice(
        _ flags: BoxOfficeFlags, display: CLIDisplay, method: BoxOfficeMethod, period: WeekPeriod?,
        periods: ([CalendarDate]) -> [CalendarDate]
    ) async -> Int32 {
        do {
            if let maxCalls = flags.maxCalls, maxCalls < 0 {
                throw CLIRefusal("--max-calls must be 0 or more")
            }
            if flags.missing && flags.from == nil {
                throw CLIRefusal("--missing goes with --from/--to")
            }
            if let days = try flags.range(today: today) {
                if display.format == .html {
                    guard let folder = display.out, !folder.isEmpty else {
                        throw CLIRefusal("a range as --format html is a site: give --out DIR")
                    }
                    let inputs = try periods(days).map { day throws(CLIRefusal) in
                        try flags.input(date: day, period: period)
                    }
                    return await writeSite(
                        inputs, method: method, folder: folder, layout: flags.layout, maxCalls: flags.maxCalls)
                }
                guard display.format != .text, !display.format.isPost else {
                    throw CLIRefusal(
                        "a range is exported as --format csv, ndjson or json, or as a site (html --out DIR)")
                }
                if flags.missing && display.format != .ndjson {
                    throw CLIRefusal("--missing goes with --format ndjson")
                }
                let inputs = try periods(days).map { day throws(CLIRefusal) in
                    try flags.input(date: day, period: period)
                }
                return await RangeExport(
                    session: self, method: method, inputs: inputs, format: display.format, excel: display.excel,
                    maxCalls: flags.maxCalls, missingSummary: flags.missing
                ).run()
            }
            let day = try flags.date.map { text throws(CLIRefusal) in try CLIDate.parse(text, today: today) }
            if let refused = refuseOut(display) { return refused }
            var input = try flags.input(date: day, period: period)
            // The grid's posters drawn by the terminal: fetched (and downloaded) as --with-posters fetches them.
            let pictures = display.format == .text && flags.layout == .grid ? terminalPictures(flags.images) : nil
            let implicitPosters = pictures != nil && !input.include.contains(.poster)
            if pictures != nil { input.include.insert(.poster) }
            let answer = try await call(method, input)
            if let pictures {
                let office = answer.office.value
                let content = answer.view
                let downloaded = await runtime.downloadedPosters(content.posterURLs) { say($0) }
                var files: [String: String] = [:]
                for (entry, item) in zip(office.entries, content.items) {
                    if let url = item.imageURL, let file = downloaded[url] { files[entry.movieCode] = file.path }
                }
                var text = PosterGrid(
                    screen: BoxOfficeScreen(width: width, style: style), graphics: pictures.graphics,
                    cell: TerminalGraphics.cellSize(), library: pictures.library
                ).render(office, files: files)
                // The grid's own escapes draw the posters; its cells were cleaned as they were laid out.
                if !implicitPosters || answer.include.count > 1 {
                    text += TerminalText.screen(Self.partsText(office, answer.parts, width: width))
                }
                write(text)
                return 0
            }
            return await show(answer, method: method, display: display, layout: flags.layout)
        } catch {
            return fail(error)
        }
    }

    /// How the grid's posters are drawn (`--images`), or nil for the text grid: never into a pipe, and only where
    /// posters can be downloaded and decoded. An explicit protocol that cannot be used says why on stderr.
    private func terminalPictures(_ choice: TerminalGraphics.Choice) -> (
        graphics: TerminalGraphics, library: PangoCairo
    )? {
        let stdinIsTerminal = isatty(STDIN_FILENO) == 1
        let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        // The terminal is asked (up to 150 ms) only when posters could be drawn at all.
        let downloads = runtime.downloadRefusal == nil
        let unavailable: String
        if let graphics = TerminalGraphics.chosen(
            choice, environment: ProcessInfo.processInfo.environment, stdoutIsTerminal: stdoutIsTerminal,
            ask: { stdinIsTerminal && downloads ? TerminalGraphics.askDeviceAttributes() : nil })
        {
            if !downloads {
                // The posters are downloads: offline, or without a cache directory, there are none to draw.
                unavailable =
                    "posters are drawn from downloads, and \(runtime.downloadUnavailable ?? "downloads are off")"
            } else {
                do {
                    return (graphics, try PangoCairo())
                } catch {
                    unavailable = error.message
                }
            }
        } else {
            unavailable = stdoutIsTerminal ? "" : "stdout is not a terminal"
        }
        if choice != .auto, choice != .never, !unavailable.isEmpty {
            say("--images \(choice.rawValue): the posters are not drawn (\(unavailable)); the grid is text")
        }
        return nil
    }

    private func show(
        _ answer: BoxOfficeAnswer, method: BoxOfficeMethod, display: CLIDisplay, layout: ListLayout
    ) async -> Int32 {
        let office = answer.office.value
        switch display.format {
        case .text:
            var text = BoxOfficeScreen(width: width, style: style).render(office, layout: layout)
            if !answer.include.isEmpty { text += Self.partsText(office, answer.parts, width: width) }
            writeScreen(text)
        case .json:
            write(String(decoding: method.result(answer).json, as: UTF8.self) + "\n")
        case .ndjson:
            write(BoxOfficeRows.ndjson(office).joined())
        case .csv:
            write(
                (display.excel ? CSVText.excelBOM : "") + CSVText.row(BoxOfficeRows.columns)
                    + BoxOfficeRows.csv(office).joined())
        case .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            return await post(answer.view, layout: layout, display: display)
        }
        return 0
    }

    /// Below the list, for `--with-details` and `--with-posters`: each entry's director, genres and poster, or
    /// why a part is missing.
    /// Each line is cut to `width` columns: a long title and an address on one line would wrap.
    static func partsText(_ office: BoxOffice, _ parts: [IncludedParts.Entry], width: Int) -> String {
        var lines = [""]
        for (entry, parts) in zip(office.entries, parts) {
            var facts: [String] = []
            if let detail = parts.detail {
                let genres = detail.genres.joined(separator: "/")
                facts.append((detail.directors.map(\.name) + [genres]).filter { !$0.isEmpty }.joined(separator: " · "))
            }
            if let poster = parts.poster {
                facts.append(poster.image?.url ?? "no poster")
            }
            if !parts.failures.isEmpty {
                facts.append(parts.failures.map(\.error.message).joined(separator: "; "))
            }
            let line = "\(entry.title): \(facts.joined(separator: " — "))"
            lines.append(
                "\(String(entry.rank).leftPadded(to: 3))  \(DisplayWidth.truncate(line, to: max(10, width - 5)))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
