import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `movie.run`: a film's run rebuilt from the daily lists, day by day, with its milestones and summary.
package struct MovieRunMethod: DomainMethod, TypedMethod {
    package static let methodName = "movie.run"
    package let summary =
        "A film's run from KOBIS's daily lists: every day from its previews to its last day in a top 10 (gaps named, never filled), the day of each 100만 step, the second-week drop, day 14 and day 49 totals."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// A film by code or title (the schema asks for one), and the limits of its scan.
    package struct Input: FilmRunner.LimitedInput, Hashable {
        package var movieCode: String?
        package var title: String?
        package var limits = FilmRunner.Limits()

        package init(movieCode: String? = nil, title: String? = nil, limits: FilmRunner.Limits = .init()) {
            (self.movieCode, self.title, self.limits) = (movieCode, title, limits)
        }

        package static let fields: [InputField<Self>] =
            [
                .text("movieCode", \.movieCode), .text("title", \.title),
            ] + FilmRunner.Limits.fields()
        package static let blank = Self()

        /// The film asked for: its code, else its title; a title of a movie code's form is that code, as the CLI,
        /// `movie.compare` and a bare line of `pipe movie.run` take it.
        var film: FilmRunner.Film {
            movieCode.map(FilmRunner.Film.code) ?? FilmRunner.Film(title ?? "")
        }
    }

    package typealias Output = FilmRunner.Made

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Output> {
        let runner = FilmRunner(runtime: runtime)
        let through = try runner.through(input.limits.through)
        return .work {
            let location = JSONPointer(tokens: [input.movieCode == nil ? "title" : "movieCode"])
            let movie = try await runner.resolve(input.film, at: location, refresh: input.limits.refresh)
            guard let request = runner.request(for: movie, through: through, limits: input.limits) else {
                return FilmRunner.noDays(movie, through: through)
            }
            let plan = try await runner.plan([request], maxCalls: input.limits.maxCalls)[0]
            return await runner.run(request, plan: plan, budget: CallBudget(input.limits.maxCalls)) { done, total in
                context.reportProgress(Double(done), total: Double(total), message: "\(done) of \(total) days")
            }
        }
    }

    package func result(_ output: Output) -> RPCResult {
        .value(ModelEncoding.run(output, offline: runtime.isOffline))
    }
}
