import BoxOfficeCore
package import BoxOfficeMethods
package import BoxOfficeViews

/// A method's output that can be presented: its view model. The methods know no view; this is where their typed
/// outputs meet the views.
package protocol PresentableAnswer: Sendable {
    var view: AnswerView { get }
}

extension BoxOfficeAnswer: PresentableAnswer {
    /// The box office, with each entry's poster when `include` asked for posters.
    package var view: AnswerView {
        AnswerView(office.value, posters: parts.map { $0.poster?.image?.url })
    }
}

extension MovieDetailMethod.Answer: PresentableAnswer {
    /// The movie's fields (its poster is another method's: the CLI adds it, ``AnswerView/init(_:poster:)``).
    package var view: AnswerView { AnswerView(movie.value) }
}

extension MovieSearchMethod.Answer: PresentableAnswer {
    package var view: AnswerView { AnswerView(search, query: query) }
}

extension FilmRunner.Made: PresentableAnswer {
    /// The run's summary and milestones, and the run for a card's chart.
    package var view: AnswerView { AnswerView(run: run, coverage: coverage) }
}

extension MovieCompareMethod.Output: PresentableAnswer {
    /// Each film's row, and the runs for a card's chart.
    package var view: AnswerView { AnswerView(comparison: runs.map(\.run), coverage: runs.map(\.coverage)) }
}
