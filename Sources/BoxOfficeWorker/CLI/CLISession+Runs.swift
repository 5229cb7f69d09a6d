import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import JSONCore
import JSONRPC

/// The limits of `run` and `compare` as typed: checked and read into the methods' own when the session runs.
package struct RunLimits: Sendable {
    package var through: String?
    package var days: Int?
    package var maxCalls: Int?
    package var diversity: Bool?
    package var refresh: Bool

    package init(through: String?, days: Int?, maxCalls: Int?, diversity: Bool?, refresh: Bool) {
        (self.through, self.days, self.maxCalls) = (through, days, maxCalls)
        (self.diversity, self.refresh) = (diversity, refresh)
    }
}

extension CLISession {
    /// `run TITLE|CODE`: the run's screen (chart, summary, milestones) through `movie.run`; its JSON, its days one
    /// a line (ndjson) or a row (csv); or its post, page or card.
    package func run(_ film: String, limits: RunLimits, display: CLIDisplay) async -> Int32 {
        if let refused = refuseOut(display) { return refused }
        let input: MovieRunMethod.Input
        do {
            let film = FilmRunner.Film(film)
            guard !film.text.isEmpty else { throw CLIRefusal("give the film's title or its KOBIS movie code") }
            input = MovieRunMethod.Input(
                movieCode: film.code, title: film.title, limits: try runLimits(limits))
        } catch {
            return fail(error)
        }
        let made: FilmRunner.Made
        do {
            made = try await call(methods.run, input)
        } catch {
            return fail(error)
        }
        let result = methods.run.result(made)
        switch display.format {
        case .text:
            writeScreen(
                RunScreen(width: width, style: style).render(run: AnswerView(run: made.run, coverage: made.coverage)))
        case .json:
            write(String(decoding: result.json, as: UTF8.self) + "\n")
        case .ndjson:
            let days = (try? result.value())?["days"]?.arrayValue ?? []
            write(days.map { JSONSerializer.string($0) + "\n" }.joined())
        case .csv:
            write(
                (display.excel ? CSVText.excelBOM : "") + CSVText.row(Self.runColumns)
                    + made.run.days.map { CSVText.row(Self.runRow($0)) }.joined())
        case .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            return await post(AnswerView(run: made.run, coverage: made.coverage), layout: .list, display: display)
        }
        return status([made])
    }

    /// A run that is whole is 0; one whose scan the quota stopped, or with no day listed for lists that could not be
    /// had, is 75 (time may mend it: the quota resets, the upstream comes back); one `--max-calls` or the end of the
    /// recordings stopped, or with days whose lists failed, is 2 (partial: the answer says which days). Either is
    /// said on stderr, in one line per film.
    func status(_ runs: [FilmRunner.Made]) -> Int32 {
        var worst = ExitStatus.success
        for made in runs {
            let coverage = made.coverage
            let listed = made.run.days.contains { $0.figures != nil }
            let status: Int32
            if coverage.stopped == .quota || (!listed && coverage.failedDays > 0) {
                status = ExitStatus.temporaryFailure
            } else if coverage.stopped == .maxCalls || coverage.stopped == .notRecorded || coverage.failedDays > 0 {
                status = ExitStatus.partial
            } else {
                continue
            }
            let to = coverage.to.map(\.description) ?? "none"
            let scan =
                coverage.stopped == .through || coverage.stopped == .ended
                ? "looked through \(to)" : "the scan stopped (\(coverage.stopped.rawValue)); looked through \(to)"
            let failed = coverage.failedDays > 0 ? ", \(coverage.failedDays) days whose lists could not be had" : ""
            say("partial: \(AnswerView.text(made.run.title)) (\(made.run.movieCode)): \(scan)\(failed)")
            worst = max(worst, status)
        }
        return worst
    }

    /// `compare A B …`: the runs' chart and each film's figures through `movie.compare`; its JSON, the days one a
    /// line (ndjson) or a row per day N with each film's totals (csv); or its post, page or card.
    package func compare(_ films: [String], limits: RunLimits, display: CLIDisplay) async -> Int32 {
        if let refused = refuseOut(display) { return refused }
        let input: MovieCompareMethod.Input
        do {
            input = MovieCompareMethod.Input(movies: films, limits: try runLimits(limits))
        } catch {
            return fail(error)
        }
        let output: MovieCompareMethod.Output
        do {
            output = try await call(methods.compare, input)
        } catch {
            return fail(error)
        }
        let runs = output.runs.map(\.run)
        let view = AnswerView(comparison: runs, coverage: output.runs.map(\.coverage))
        let result = methods.compare.result(output)
        switch display.format {
        case .text:
            writeScreen(RunScreen(width: width, style: style).render(comparison: view))
        case .json:
            write(String(decoding: result.json, as: UTF8.self) + "\n")
        case .ndjson:
            let days = (try? result.value())?["days"]?.arrayValue ?? []
            write(days.map { JSONSerializer.string($0) + "\n" }.joined())
        case .csv:
            let comparison = FilmComparison(runs)
            var columns = ["day"]
            for run in runs { columns += ["\(run.movieCode) audience", "\(run.movieCode) audienceTotal"] }
            var text = (display.excel ? CSVText.excelBOM : "") + CSVText.row(columns)
            for day in comparison.days {
                var row = [String(day.day)]
                for film in day.films {
                    let figures = film?.figures
                    row += [figures.map { String($0.audience) } ?? "", figures.map { String($0.audienceTotal) } ?? ""]
                }
                text += CSVText.row(row)
            }
            write(text)
        case .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            return await post(view, layout: .list, display: display)
        }
        return status(output.runs)
    }

    /// The typed limits as the methods take them: the date read as people write it, the rest as given (the
    /// method's schema checks their bounds, with its messages).
    private func runLimits(_ limits: RunLimits) throws(CLIRefusal) -> FilmRunner.Limits {
        FilmRunner.Limits(
            through: try limits.through.map { (text) throws(CLIRefusal) in try CLIDate.parse(text, today: today) },
            days: limits.days ?? FilmRunner.defaultDays, maxCalls: limits.maxCalls, diversity: limits.diversity,
            refresh: limits.refresh)
    }

    static let runColumns = [
        "date", "day", "rank", "list", "audience", "audienceTotal", "sales", "salesTotal", "screens", "shows",
        "missing",
    ]

    /// A run day's row: its figures, or empty cells and why it has none (never a figure made up).
    static func runRow(_ day: RunDay) -> [String] {
        let head = [day.date.description, String(day.day)]
        switch day.listing {
        case .listed(let figures):
            return head + [
                String(figures.rank), figures.list.rawValue, String(figures.audience), String(figures.audienceTotal),
                String(figures.sales), String(figures.salesTotal), String(figures.screens), String(figures.shows), "",
            ]
        case .missing(let reason):
            return head + Array(repeating: "", count: 8) + [reason]
        }
    }
}

extension FilmRunner.Film {
    var code: String? {
        if case .code(let code) = self { code } else { nil }
    }

    var title: String? {
        if case .title(let title) = self { title } else { nil }
    }
}
