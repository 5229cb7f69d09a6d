import NIOConcurrencyHelpers

extension BoxOfficeService {
    /// A film's run to rebuild: which film, the narrower lists it belongs to, and the days to look at.
    package struct RunRequest: Sendable, Hashable {
        package var movieCode: String
        package var title: String
        package var openDate: CalendarDate?
        /// The film's nation list (`repNationCd`), asked on a day it is outside the overall top 10; nil: unknown.
        package var nation: Filters.Nation?
        /// The film's 다양성 (true) or 상업 (false) list (`multiMovieYn`), asked after the nation list; nil: not asked.
        package var diversity: Bool?
        /// The days that may be looked at, each one day's lists; the scan may stop before the last (``RunScan``).
        package var days: ClosedRange<CalendarDate>
        /// Bypass the cache for every list, and rewrite it.
        package var refresh = false

        package init(
            movieCode: String, title: String, openDate: CalendarDate?, nation: Filters.Nation? = nil,
            diversity: Bool? = nil, days: ClosedRange<CalendarDate>, refresh: Bool = false
        ) {
            (self.movieCode, self.title, self.openDate) = (movieCode, title, openDate)
            (self.nation, self.diversity, self.days, self.refresh) = (nation, diversity, days, refresh)
        }

        /// The lists a day is asked in, in order: the overall top 10, then the narrower ones the film belongs to.
        package var lists: [(RunDay.List, Filters)] {
            var lists: [(RunDay.List, Filters)] = [(.all, Filters())]
            if let nation { lists.append((nation == .korean ? .korean : .foreign, Filters(nation: nation))) }
            if let diversity { lists.append((diversity ? .diversity : .commercial, Filters(multiMovie: diversity))) }
            return lists
        }

        /// Every day of ``days``, in order.
        var dates: [CalendarDate] {
            Array(sequence(first: days.lowerBound) { $0 < days.upperBound ? $0.adding(days: 1) : nil })
        }

        /// The day the run is counted from: the opening day, or the first day looked at without one.
        var opening: CalendarDate { openDate ?? days.lowerBound }
    }

    /// What a run will cost before a call: the days that may be looked at, and how many of them need a list the
    /// cache does not hold (one KOBIS call each for the overall list; a day the film is outside it costs one more
    /// per narrower list asked, at most ``narrowerAtMost``).
    package struct RunPlan: Sendable {
        package var days: Int
        package var uncached: Int
        package var narrowerAtMost: Int
    }

    /// Readies what the cache keeps for the run's lists (the overall ones, then the narrower ones of the days the
    /// film is outside the overall list) and counts the days that need a fetch, in date order, up to where the cached
    /// days alone show the run over (``RunScan/endAfter`` days in no list): a run already scanned plans nothing,
    /// whatever days past its end the window holds; a day not cached counts, and may be listed, so it never ends one.
    package func plan(_ request: RunRequest) async throws(BoxOfficeError) -> RunPlan {
        let dates = request.dates
        var uncached = 0
        var absentInARow = 0
        // A chunk at a time, so what one chunk readies is still in the memory tier (a few hundred lists) when its
        // days are counted.
        chunks: for start in stride(from: 0, to: dates.count, by: Self.planChunk) {
            let chunk = dates[start..<min(start + Self.planChunk, dates.count)]
            let overall = try chunk.map { date throws(BoxOfficeError) in
                try plan(BoxOfficeRequest(span: .daily(date), refresh: request.refresh))
            }
            await prefetch(overall)
            var narrower: [BoxOfficePlan] = []
            for var plan in overall {
                guard let office = inMemory(&plan),
                    !office.value.entries.contains(where: { $0.movieCode == request.movieCode })
                else { continue }
                for (_, filters) in request.lists.dropFirst() {
                    narrower.append(try self.plan(BoxOfficeRequest(span: plan.request.span, filters: filters)))
                }
            }
            await prefetch(narrower)
            for date in chunk {
                switch lookInMemory(at: date, for: request) {
                case .missing?:
                    if date >= request.opening { absentInARow += 1 }
                case .listed?, .stopped?:
                    absentInARow = 0
                case nil:
                    uncached += 1
                    absentInARow = 0
                }
                if absentInARow >= RunScan.endAfter { break chunks }
            }
        }
        return RunPlan(days: dates.count, uncached: uncached, narrowerAtMost: (request.lists.count - 1) * dates.count)
    }

    /// Days planned at once: their lists (up to three a day) fit the memory tier together.
    static let planChunk = 60

    /// The film's run over the request's days: each day's overall top 10 and, on a day the film is not in it, the
    /// narrower lists it belongs to, one at a time until one has it. Every list goes through the service's chain
    /// (the cache, coalescing, the per-service bound, the quota), so a second run of the same days makes no upstream
    /// call. A day whose lists are all in memory is answered without a task; the others are looked at `width` at a
    /// time, in date order, and `progress` hears of each day done. At most `maxCalls` lists are fetched that the
    /// memory tier does not hold as `budget` allows (runs compared share one). The scan stops as
    /// ``RunCoverage/Stop`` says.
    package func run(
        _ request: RunRequest, budget: CallBudget = CallBudget(nil), width: Int = 20,
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async -> (FilmRun, RunCoverage) {
        let dates = request.dates
        let calls = CallBudget(nil)
        var scan = RunScan(dates: dates, opening: request.opening)
        await withTaskGroup(of: (Int, RunScan.Outcome).self) { group in
            var inFlight = 0
            while true {
                while inFlight < max(1, width), let index = scan.nextIndex() {
                    if let known = lookInMemory(at: dates[index], for: request) {
                        scan.record(known, at: index)
                        progress(scan.done, dates.count)
                    } else {
                        group.addTask {
                            (index, await self.look(at: dates[index], for: request, budget: budget, counted: calls))
                        }
                        inFlight += 1
                    }
                }
                guard inFlight > 0, let (index, outcome) = await group.next() else {
                    // A run that ended, or stopped, early is done all the same.
                    if scan.done < dates.count { progress(dates.count, dates.count) }
                    break
                }
                inFlight -= 1
                scan.record(outcome, at: index)
                progress(scan.done, dates.count)
            }
        }
        let run = FilmRun(
            movieCode: request.movieCode, title: request.title, openDate: request.openDate,
            through: request.days.upperBound, listed: scan.listed, missing: scan.missing)
        let coverage = RunCoverage(
            from: dates.first, to: scan.covered > 0 ? dates[scan.covered - 1] : nil, daysLooked: scan.covered,
            calls: calls.spent,
            lists: RunDay.List.allCases.filter(Set(scan.listed.values.map(\.list)).contains),
            stopped: scan.stop ?? .through)
        return (run, coverage)
    }

    /// The film's row on `date` when every list it needs is in the memory tier; nil when one must be fetched.
    private func lookInMemory(at date: CalendarDate, for request: RunRequest) -> RunScan.Outcome? {
        guard !request.refresh else { return nil }
        for (list, filters) in request.lists {
            guard var plan = try? plan(BoxOfficeRequest(span: .daily(date), filters: filters)),
                let office = inMemory(&plan)
            else { return nil }
            if let entry = office.value.entries.first(where: { $0.movieCode == request.movieCode }) {
                return .listed(RunDay.Figures(entry, list: list))
            }
        }
        return .missing("not_listed")
    }

    /// The film's row on `date`, from the first of its lists that has it; each list the memory tier does not hold
    /// takes a call from `budget` first, and is counted in `counted`.
    private func look(
        at date: CalendarDate, for request: RunRequest, budget: CallBudget, counted: CallBudget
    ) async -> RunScan.Outcome {
        for (list, filters) in request.lists {
            let office: BoxOffice
            do {
                var plan = try plan(BoxOfficeRequest(span: .daily(date), filters: filters, refresh: request.refresh))
                // A narrower list from the disk cache when it has it, so a list read from disk is not counted as a
                // call (the plan readied the overall lists).
                if list != .all, !request.refresh, inMemory(&plan) == nil { await prefetch([plan]) }
                if let kept = inMemory(&plan) {
                    office = kept.value
                } else {
                    guard budget.take() else { return .stopped(.maxCalls) }
                    _ = counted.take()
                    office = try await boxOffice(plan).value
                }
            } catch {
                switch error.reason {
                case .quotaExhausted: return .stopped(.quota)
                case .offlineUnavailable: return .stopped(.notRecorded)
                default: return .missing(error.reason.rawValue)
                }
            }
            if let entry = office.entries.first(where: { $0.movieCode == request.movieCode }) {
                return .listed(RunDay.Figures(entry, list: list))
            }
        }
        return .missing("not_listed")
    }
}

/// The lists a run may still fetch: `nil` is no bound. Taken from concurrent tasks, so behind a lock.
package final class CallBudget: Sendable {
    private let state: NIOLockedValueBox<(left: Int?, spent: Int)>

    package init(_ calls: Int?) { state = NIOLockedValueBox((calls, 0)) }

    /// Takes one call; false when none is left.
    func take() -> Bool {
        state.withLockedValue { state in
            if let left = state.left {
                guard left > 0 else { return false }
                state.left = left - 1
            }
            state.spent += 1
            return true
        }
    }

    package var spent: Int { state.withLockedValue { $0.spent } }
}
