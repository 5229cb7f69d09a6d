package import BoxOfficeCore
package import JSONCore
package import JSONRPC

/// What `movie.run` and `movie.compare` share: a film named by code or title made into a run request (its details
/// give the opening day and the nation list), the plan checked against the quota before any list is fetched, and
/// the scan.
package struct FilmRunner: Sendable {
    /// Days before the opening that are looked at for previews (유료시사회, counted by KOBIS in the daily lists):
    /// two weeks (범죄도시4's began 9 days before its opening). `scripts/make-fixtures.py` records as many.
    package static let previewDays = 14
    /// Days from the opening looked at by default, and at most.
    package static let defaultDays = 150
    package static let maximumDays = 400

    /// How a film is named: by KOBIS code, or by a title that `movie.search` must resolve to one film.
    package enum Film: Sendable, Hashable {
        case code(String)
        case title(String)

        /// A text of a KOBIS movie code's form (``MovieCodeForm``: `20234675`, `2023C625`) is a code, upper-cased;
        /// anything else a title (so `1917` is searched for).
        package init(_ text: String) {
            self = MovieCodeForm.matches(text) ? .code(text.uppercased()) : .title(text)
        }

        package var text: String {
            switch self {
            case .code(let code): code
            case .title(let title): title
            }
        }
    }

    /// The days of a scan and the limits on it.
    package struct Limits: Sendable, Hashable {
        /// The last day to look at (nil: yesterday in Seoul; offline: the last recorded run day).
        package var through: CalendarDate?
        package var days = FilmRunner.defaultDays
        package var maxCalls: Int?
        package var diversity: Bool?
        package var refresh = false

        package init(
            through: CalendarDate? = nil, days: Int = FilmRunner.defaultDays, maxCalls: Int? = nil,
            diversity: Bool? = nil, refresh: Bool = false
        ) {
            (self.through, self.days, self.maxCalls) = (through, days, maxCalls)
            (self.diversity, self.refresh) = (diversity, refresh)
        }

        /// The params of the limits, as every run method reads them.
        package static func fields<Input: LimitedInput>() -> [InputField<Input>] {
            [
                .date("through", \.limits.through), .int("days", \.limits.days, default: FilmRunner.defaultDays),
                .int("maxCalls", \.limits.maxCalls), .choice("diversity", \.limits.diversity),
                .flag("refresh", \.limits.refresh),
            ]
        }
    }

    /// An input with a scan's limits, whose params are read by ``Limits/fields()``.
    package protocol LimitedInput: MethodInput {
        var limits: Limits { get set }
    }

    /// A run made, with what it cost.
    package struct Made: Sendable {
        package var run: FilmRun
        package var coverage: RunCoverage
        package var plan: BoxOfficeService.RunPlan
    }

    let runtime: WorkerRuntime
    var service: BoxOfficeService { runtime.service }

    package init(runtime: WorkerRuntime) { self.runtime = runtime }

    /// The last day a scan may look at: `through` checked as a daily date, or its default.
    package func through(_ asked: CalendarDate?) throws(RPCError) -> CalendarDate {
        let calendar = service.calendar()
        guard let asked else {
            // Offline, the recorded runs' last day, unless today (`--today`) comes before it.
            return min(service.offline?.runsThrough ?? calendar.yesterday, calendar.yesterday)
        }
        do {
            try calendar.checkDaily(asked)
        } catch {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["through"]), error.message)
        }
        return asked
    }

    /// The film's details, by code or by a title one film matches (an exact title first): `-32602` at `location`
    /// listing the candidates when several do, `-31004` `not_found` when none does.
    package func resolve(_ film: Film, at location: JSONPointer, refresh: Bool) async throws(RPCError) -> Movie {
        let code: String
        switch film {
        case .code(let given):
            code = given
        case .title(let title):
            let search = try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.search(title: title, director: nil, year: nil, page: 1, limit: 10)
            }
            let exact = search.movies.filter { $0.title == title }
            let candidates = exact.isEmpty ? search.movies : exact
            guard candidates.count == 1, let found = candidates.first else {
                throw Self.unresolved(title, candidates, at: location)
            }
            code = found.movieCode
        }
        return try await withWireErrors { () async throws(BoxOfficeError) in
            try await service.movie(code: code, refresh: refresh)
        }
    }

    package static func unresolved(_ title: String, _ candidates: [MovieSearch.Found], at location: JSONPointer)
        -> RPCError
    {
        guard !candidates.isEmpty else {
            // Nothing wrong with the params: KOBIS has no such film, as an unknown code is `not_found`.
            return BoxOfficeError(.notFound, "no KOBIS film is titled \"\(title)\": search with movie.search").rpcError
        }
        let listed = candidates.map { found in
            "\(found.movieCode) \(found.title)\(found.openDate.map { " (\($0))" } ?? "")"
        }
        var error = RPCError.invalidParams(
            at: location,
            "\"\(title)\" matches \(candidates.count) films: give one's movieCode: \(listed.joined(separator: "; "))")
        if case .object(var data)? = error.data {
            data["candidates"] = .array(
                candidates.map { found in
                    [
                        "movieCode": .string(found.movieCode), "title": .string(found.title),
                        "openDate": ModelEncoding.date(found.openDate),
                    ]
                })
            error.data = .object(data)
        }
        return error
    }

    /// The run request for `movie` up to `through`: from ``previewDays`` before the opening to `days` days after
    /// it. Nil when there is no day to look at: KOBIS gives the film no opening date (its run has no day 1), it opens
    /// after `through`, or its run ended before KOBIS's daily lists begin (2003-11-11); its answer is then an empty
    /// run (``noDays(_:through:)``), not a refusal: nothing is wrong with the params.
    package func request(for movie: Movie, through: CalendarDate, limits: Limits) -> BoxOfficeService.RunRequest? {
        guard let open = movie.openDate else { return nil }
        let first = max(open.adding(days: -Self.previewDays), SeoulCalendar.earliest)
        let last = min(through, open.adding(days: limits.days - 1))
        guard first <= last else { return nil }
        let nation: BoxOfficeService.Filters.Nation? =
            movie.nations.first.map { $0 == "한국" ? .korean : .foreign }
        return BoxOfficeService.RunRequest(
            movieCode: movie.movieCode, title: movie.title, openDate: open, nation: nation,
            diversity: limits.diversity, days: first...last, refresh: limits.refresh)
    }

    /// The run of a film with no day to look at: no day, no call, `stopped: no_days`.
    package static func noDays(_ movie: Movie, through: CalendarDate) -> Made {
        Made(
            run: FilmRun(
                movieCode: movie.movieCode, title: movie.title, openDate: movie.openDate, through: through,
                listed: [:], missing: [:]),
            coverage: RunCoverage(
                from: nil, to: nil, daysLooked: 0, failedDays: 0, calls: 0, lists: [], stopped: .noDays),
            plan: BoxOfficeService.RunPlan(days: 0, uncached: 0, narrowerAtMost: 0))
    }

    /// The overall lists the requests need that the cache does not hold, refused before any call when they are more
    /// than today's quota leaves and `maxCalls` does not bound the scan (`-31005`, with the counts).
    package func plan(_ requests: [BoxOfficeService.RunRequest], maxCalls: Int?) async throws(RPCError)
        -> [BoxOfficeService.RunPlan]
    {
        var plans: [BoxOfficeService.RunPlan] = []
        for request in requests {
            plans.append(
                try await withWireErrors { () async throws(BoxOfficeError) in try await service.plan(request) })
        }
        guard maxCalls == nil, let quota = runtime.quota else { return plans }
        let needed = plans.reduce(0) { $0 + $1.uncached }
        let status = await quota.status()
        guard needed > status.remaining else { return plans }
        let days = plans.reduce(0) { $0 + $1.days }
        throw BoxOfficeError(
            .quotaExhausted,
            "\(needed) of \(days) days' lists are not cached: \(needed) KOBIS calls needed and \(status.remaining) "
                + "left today (it resets at \(status.resetsAt)); nothing fetched. Give maxCalls to fetch part of it now",
            service: .kobis
        ).rpcError
    }

    /// The scan of one request, with its share of the calls.
    package func run(
        _ request: BoxOfficeService.RunRequest, plan: BoxOfficeService.RunPlan, budget: CallBudget,
        progress: @Sendable (Int, Int) -> Void
    ) async -> Made {
        let (run, coverage) = await service.run(
            request, budget: budget, width: runtime.upstreamWidth, progress: progress)
        return Made(run: run, coverage: coverage, plan: plan)
    }
}
