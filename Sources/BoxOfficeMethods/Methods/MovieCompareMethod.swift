package import BoxOfficeCore
import JSONCore
package import JSONRPC
import NIOConcurrencyHelpers

/// `movie.compare`: 2 to 8 films' runs side by side, aligned by day N since each one's opening.
package struct MovieCompareMethod: DomainMethod, TypedMethod {
    package static let methodName = "movie.compare"
    package let summary =
        "2 to 8 films' runs (codes or titles) aligned by day since opening: audience and running total by day N, the days each took to reach each 100만 step, and their summaries side by side."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// The films, each a KOBIS code or a title, and the limits every scan keeps (`maxCalls` for them all).
    package struct Input: FilmRunner.LimitedInput, Hashable {
        package var movies: [String] = []
        package var limits = FilmRunner.Limits()

        package init(movies: [String], limits: FilmRunner.Limits = .init()) {
            (self.movies, self.limits) = (movies, limits)
        }

        package static let fields: [InputField<Self>] =
            [
                .custom(
                    "movies",
                    read: { value, input in input.movies = value.arrayValue?.compactMap(\.stringValue) ?? [] },
                    write: { input in .array(input.movies.map { .string($0) }) })
            ] + FilmRunner.Limits.fields()
        package static let blank = Self(movies: [])
    }

    /// The runs in the order asked, and the last day they looked at.
    package struct Output: Sendable {
        package var runs: [FilmRunner.Made]
        package var through: CalendarDate
    }

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output> {
        let runner = FilmRunner(runtime: runtime)
        let through = try runner.through(input.limits.through)
        return .work {
            // Each film's scan, or its empty run when it has no day to look at.
            var films: [(movie: Movie, request: BoxOfficeService.RunRequest?)] = []
            for (index, text) in input.movies.enumerated() {
                let location = JSONPointer(tokens: ["movies", String(index)])
                let movie = try await runner.resolve(
                    FilmRunner.Film(text), at: location, refresh: input.limits.refresh)
                films.append((movie, runner.request(for: movie, through: through, limits: input.limits)))
            }
            let requests = films.compactMap(\.request)
            let plans = try await runner.plan(requests, maxCalls: input.limits.maxCalls)
            var scans: [(Int, BoxOfficeService.RunRequest, BoxOfficeService.RunPlan)] = []
            var planned = plans.makeIterator()
            for (index, film) in films.enumerated() {
                if let request = film.request, let plan = planned.next() { scans.append((index, request, plan)) }
            }
            let budget = CallBudget(input.limits.maxCalls)
            let total = plans.reduce(0) { $0 + $1.days }
            let progress = DaysDone(films: films.count)
            var runs = films.map { FilmRunner.noDays($0.movie, through: through) }
            await withTaskGroup(of: (Int, FilmRunner.Made).self) { group in
                for (index, request, plan) in scans {
                    group.addTask {
                        let made = await runner.run(request, plan: plan, budget: budget) { done, _ in
                            let all = progress.set(done, for: index)
                            context.reportProgress(
                                Double(all), total: Double(total), message: "\(all) of \(total) days")
                        }
                        return (index, made)
                    }
                }
                for await (index, made) in group { runs[index] = made }
            }
            return Output(runs: runs, through: through)
        }
    }

    package func result(_ output: Output) -> RPCResult {
        .value(ModelEncoding.comparison(output.runs, through: output.through, offline: runtime.isOffline))
    }
}

/// The days each compared run has looked at, summed for one progress figure.
private final class DaysDone: Sendable {
    private let done: NIOLockedValueBox<[Int]>

    init(films: Int) { done = NIOLockedValueBox(Array(repeating: 0, count: films)) }

    /// Sets one film's count; the sum of all.
    func set(_ count: Int, for film: Int) -> Int {
        done.withLockedValue { done in
            done[film] = count
            return done.reduce(0, +)
        }
    }
}
