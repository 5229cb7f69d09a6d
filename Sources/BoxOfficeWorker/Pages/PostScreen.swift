/// Which screen a page or a card shows: a list (a box office or a search) in a layout, or one movie.
package enum PostScreen: Sendable, Equatable {
    /// `kind` names the list (`boxoffice`, `search`): the page's `<main>` class.
    case list(kind: String, layout: BoxOfficeScreen.Layout)
    case movie
}
