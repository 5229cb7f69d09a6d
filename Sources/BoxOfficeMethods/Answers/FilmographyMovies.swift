package import BoxOfficeCore

/// `include: ["movies"]` on a person: the details of every film in the filmography, fetched concurrently.
///
/// The same fan-out as a box office's included parts (``IncludedParts``): what the cache keeps is readied in one go,
/// then each film is one `movie.detail` call through the fetcher chain, which bounds the calls in flight per service
/// and makes identical calls once (a film the person had two parts in, or two requests for people who share films,
/// cost one call). A film that fails leaves its filmography entry standing with the error; with a progress token,
/// each finished film sends one `notifications/progress` (`total` = distinct films).
///
/// At most ``most`` films are fetched, the first ones of the filmography: every detail is a KOBIS call against the
/// shared daily budget (3,000 a key), and an actor's filmography runs to hundreds of films; the result says how many
/// were left out (`moviesOmitted`).
package struct FilmographyMovies: Sendable {
    /// The most films one request fetches: two waves of the per-service limit.
    package static let most = 40

    /// What one film's detail came to.
    package struct Outcome: Sendable {
        package var movie: Movie?
        package var error: BoxOfficeError?
    }

    /// By movie code.
    package var outcomes: [String: Outcome] = [:]
    /// Distinct films past ``most``, left without their details.
    package var omitted = 0

    /// Each fetched film's detail or why it could not be had, by movie code.
    package var results: [String: Result<Movie, BoxOfficeError>] {
        outcomes.compactMapValues { outcome in outcome.movie.map(Result.success) ?? outcome.error.map(Result.failure) }
    }

    package static func fetch(
        for person: Person, service: BoxOfficeService, progress: @Sendable (Double, Double, String) -> Void
    ) async -> FilmographyMovies {
        let distinct = person.movieCodes
        let codes = Array(distinct.prefix(most))
        let titles = Dictionary(
            person.filmography.map { ($0.movieCode, $0.title) }, uniquingKeysWith: { first, _ in first })
        var movies = FilmographyMovies(omitted: distinct.count - codes.count)
        guard !codes.isEmpty else { return movies }
        await service.prefetchMovies(codes)
        await withTaskGroup(of: (String, Outcome).self) { group in
            for code in codes {
                group.addTask {
                    // Through Result(awaiting:): a do/catch returning this tuple is miscompiled under -O.
                    let result = await Result { () async throws(BoxOfficeError) in try await service.movie(code: code) }
                    switch result {
                    case .success(let movie): return (code, Outcome(movie: movie))
                    case .failure(let error): return (code, Outcome(error: error))
                    }
                }
            }
            var finished = 0
            for await (code, outcome) in group {
                finished += 1
                movies.outcomes[code] = outcome
                progress(Double(finished), Double(codes.count), "movie of \(titles[code] ?? code)")
            }
        }
        return movies
    }
}
