extension BoxOfficeService {
    /// A film's run to rebuild: which film, the narrower lists it belongs to, and the days to look at.
    package struct RunRequest: Sendable, Hashable {
        package var movieCode: String
        package var title: String
        package var openDate: CalendarDate?
        /// The film's nation list (`repNationCd`), asked on a day it is outside the overall top 10; nil: unknown.
        package var nation: Filters.Nation?
        /// The film's 다양성 (true) or 상업 (false) list (`multiMovieYn`), asked after the nation list; nil: unknown.
        package var diversity: Bool?
        /// The days to look at, each one day's lists.
        package var days: ClosedRange<CalendarDate>

        package init(
            movieCode: String, title: String, openDate: CalendarDate?, nation: Filters.Nation? = nil,
            diversity: Bool? = nil, days: ClosedRange<CalendarDate>
        ) {
            (self.movieCode, self.title, self.openDate) = (movieCode, title, openDate)
            (self.nation, self.diversity, self.days) = (nation, diversity, days)
        }

        /// The lists a day is asked in, in order: the overall top 10, then the narrower ones the film belongs to.
        var lists: [(RunDay.List, Filters)] {
            var lists: [(RunDay.List, Filters)] = [(.all, Filters())]
            if let nation { lists.append((nation == .korean ? .korean : .foreign, Filters(nation: nation))) }
            if let diversity { lists.append((diversity ? .diversity : .commercial, Filters(multiMovie: diversity))) }
            return lists
        }
    }

    /// The film's run over the request's days: each day's overall top 10 and, on a day the film is not in it, the
    /// narrower lists it belongs to, one at a time until one has it. Every list goes through the service's chain
    /// (the cache, coalescing, the per-service bound, the quota), so a second run of the same days makes no upstream
    /// call; `width` days are looked at at once, and `progress` hears of each day done. A day whose lists cannot be
    /// had is a gap with the failure's reason; a day no list has is `not_listed`.
    package func run(
        _ request: RunRequest, width: Int = 10, progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async -> FilmRun {
        let days = Array(
            sequence(first: request.days.lowerBound) { $0 < request.days.upperBound ? $0.adding(days: 1) : nil })
        var listed: [CalendarDate: RunDay.Figures] = [:]
        var missing: [CalendarDate: String] = [:]
        await withTaskGroup(of: (CalendarDate, Result<RunDay.Figures, RunGap>).self) { group in
            var next = 0
            func add() {
                guard next < days.count else { return }
                let day = days[next]
                next += 1
                group.addTask { (day, await self.look(at: day, for: request)) }
            }
            for _ in 0..<max(1, width) { add() }
            var done = 0
            for await (day, outcome) in group {
                switch outcome {
                case .success(let figures): listed[day] = figures
                case .failure(let gap): missing[day] = gap.reason
                }
                done += 1
                progress(done, days.count)
                add()
            }
        }
        return FilmRun(
            movieCode: request.movieCode, title: request.title, openDate: request.openDate,
            through: request.days.upperBound, listed: listed, missing: missing)
    }

    /// Why a day of a run has no figures.
    struct RunGap: Error {
        var reason: String
    }

    /// The film's row on `day`, from the first of its lists that has it.
    private func look(at day: CalendarDate, for request: RunRequest) async -> Result<RunDay.Figures, RunGap> {
        for (list, filters) in request.lists {
            let office: BoxOffice
            do {
                office = try await boxOffice(try plan(BoxOfficeRequest(span: .daily(day), filters: filters))).value
            } catch {
                return .failure(RunGap(reason: error.reason.rawValue))
            }
            if let entry = office.entries.first(where: { $0.movieCode == request.movieCode }) {
                return .success(RunDay.Figures(entry, list: list))
            }
        }
        return .failure(RunGap(reason: "not_listed"))
    }
}
