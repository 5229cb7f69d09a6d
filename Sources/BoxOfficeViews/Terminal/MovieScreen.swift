package import BoxOfficeCore
import FoundationEssentials
import Glibc

/// The detail screen: titles, director(s), year, opening date, runtime, watch grade, nations, genres, actors with
/// their roles, and the poster (its URL, or the downloaded file).
package struct MovieScreen: Sendable {
    package let width: Int
    package let style: TerminalStyle

    package init(width: Int, style: TerminalStyle) {
        self.width = max(40, width)
        self.style = style
    }

    /// The screen for `movie`, with what is known of its poster (`poster` nil: the search failed, said in
    /// `posterProblem`).
    package func render(_ movie: Movie, poster: PosterSearch?, file: PosterFile?, posterProblem: String?) -> String {
        var screen = FieldLines(title: movie.title, english: movie.titleEnglish, width: width, style: style)
        func field(_ name: String, _ value: String?) { screen.field(name, value) }
        field("Director", movie.directors.map(\.name).joined(separator: ", "))
        field("Year", movie.productionYear.map(String.init))
        field("Opening", movie.openDate?.description)
        field("Runtime", movie.runtimeMinutes.map { "\($0) min" })
        field("Grade", movie.watchGrade)
        field("Nations", movie.nations.joined(separator: ", "))
        field("Genres", movie.genres.joined(separator: ", "))
        field(
            "Actors",
            movie.actors.prefix(8).map { actor in
                actor.role.map { "\(actor.name) (\($0))" } ?? actor.name
            }.joined(separator: ", "))
        if let file {
            field("Poster", file.path)
        } else if let image = poster?.image {
            field("Poster", image.url)
        } else {
            field("Poster", posterProblem ?? "none found")
        }
        field("Code", movie.movieCode)
        return screen.text
    }

    /// `text` in lines of at most `width` columns, broken at `separator` where it can be: after ", " (a broken line
    /// keeps its comma) or, with " ", between words. A piece too long for a line is cut.
    package static func wrap(_ text: String, width: Int, at separator: String = ", ") -> [String] {
        guard DisplayWidth.of(text) > width else { return [text] }
        // What a broken line ends with: the separator without its spaces; it must fit too.
        let trail = String(separator.filter { $0 != " " })
        var lines: [String] = []
        var current = ""
        for piece in text.split(separator: separator).map(String.init) {
            let candidate = current.isEmpty ? piece : current + separator + piece
            if DisplayWidth.of(candidate) + DisplayWidth.of(trail) > width, !current.isEmpty {
                lines.append(current + trail)
                current = piece
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { DisplayWidth.truncate($0, to: width) }
    }
}
