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

        package init(days: Int, uncached: Int, narrowerAtMost: Int) {
            (self.days, self.uncached, self.narrowerAtMost) = (days, uncached, narrowerAtMost)
        }
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
        // A day's calls are reserved when it is started, in date order: its worst case (every list it may ask), the
        // unused given back when it is done. A day whose worst case `maxCalls` cannot cover waits for the days in
        // flight to give theirs back, and stops the scan only when none is left to: so the days a budget allows are
        // the first ones, whichever call finishes first.
        let worstCase = request.lists.count
        await withTaskGroup(of: (Int, RunScan.Outcome, Int).self) { group in
            var inFlight = 0
            var waiting: Int?
            while true {
                while inFlight < max(1, width), let index = waiting ?? scan.nextIndex() {
                    waiting = nil
                    if let known = lookInMemory(at: dates[index], for: request) {
                        scan.record(known, at: index)
                        progress(scan.done, dates.count)
                        continue
                    }
                    var reserved = worstCase
                    if !budget.take(worstCase) {
                        if inFlight > 0 {
                            waiting = index
                            break
                        }
                        // Nothing in flight gives any back: the day goes with what is left, if anything.
                        reserved = budget.takeWhatIsLeft(upTo: worstCase)
                        guard reserved > 0 else {
                            scan.record(.stopped(.maxCalls), at: index)
                            progress(scan.done, dates.count)
                            continue
                        }
                    }
                    group.addTask { [reserved] in
                        let (outcome, made) = await self.look(
                            at: dates[index], for: request, allowed: reserved, counted: calls)
                        return (index, outcome, reserved - made)
                    }
                    inFlight += 1
                }
                guard inFlight > 0, let (index, outcome, unused) = await group.next() else {
                    // A run that ended, or stopped, early is done all the same.
                    if scan.done < dates.count { progress(dates.count, dates.count) }
                    break
                }
                inFlight -= 1
                budget.give(unused)
                scan.record(outcome, at: index)
                progress(scan.done, dates.count)
                // A stop while a day waited: the day is not started.
                if scan.stop != nil { waiting = nil }
            }
        }
        let kept = scan.kept
        let run = FilmRun(
            movieCode: request.movieCode, title: request.title, openDate: request.openDate,
            through: request.days.upperBound, listed: kept.listed, missing: kept.missing)
        let coverage = RunCoverage(
            from: dates.first, to: scan.covered > 0 ? dates[scan.covered - 1] : nil, daysLooked: scan.covered,
            failedDays: scan.failedDays, calls: calls.spent,
            lists: RunDay.List.allCases.filter(Set(kept.listed.values.map(\.list)).contains),
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

    /// The film's row on `date`, from the first of its lists that has it, and how many lists it fetched that the
    /// memory tier did not hold: at most `allowed`, the calls the scan reserved for it (each counted in `counted`
    /// once made).
    private func look(
        at date: CalendarDate, for request: RunRequest, allowed: Int, counted: CallBudget
    ) async -> (RunScan.Outcome, Int) {
        var made = 0
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
                    guard made < allowed else { return (.stopped(.maxCalls), made) }
                    made += 1
                    office = try await boxOffice(plan).value
                    _ = counted.take()
                }
            } catch {
                switch error.reason {
                // Refused before it left: the quota guard or the recordings, not a call made.
                case .quotaExhausted: return (.stopped(.quota), made - 1)
                case .offlineUnavailable: return (.stopped(.notRecorded), made - 1)
                default:
                    _ = counted.take()
                    return (.missing(error.reason.rawValue), made)
                }
            }
            if let entry = office.entries.first(where: { $0.movieCode == request.movieCode }) {
                return (.listed(RunDay.Figures(entry, list: list)), made)
            }
        }
        return (.missing("not_listed"), made)
    }
}

/// The lists a run may still fetch: `nil` is no bound. Taken from concurrent tasks, so behind a lock.
package final class CallBudget: Sendable {
    private let state: NIOLockedValueBox<(left: Int?, spent: Int)>

    package init(_ calls: Int?) { state = NIOLockedValueBox((calls, 0)) }

    /// Takes `count` calls; false (and none taken) when fewer are left.
    func take(_ count: Int = 1) -> Bool {
        state.withLockedValue { state in
            if let left = state.left {
                guard left >= count else { return false }
                state.left = left - count
            }
            state.spent += count
            return true
        }
    }

    /// Takes what is left, at most `count`; the calls taken.
    func takeWhatIsLeft(upTo count: Int) -> Int {
        state.withLockedValue { state in
            let taken = min(count, state.left ?? count)
            if let left = state.left { state.left = left - taken }
            state.spent += taken
            return taken
        }
    }

    /// Gives back calls taken and not made.
    func give(_ count: Int) {
        guard count > 0 else { return }
        state.withLockedValue { state in
            if let left = state.left { state.left = left + count }
            state.spent -= count
        }
    }

    package var spent: Int { state.withLockedValue { $0.spent } }
}
