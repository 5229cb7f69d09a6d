package import BoxOfficeCore

/// A person's screen, in the movie detail screen's style: names, role, sex, homepages, then the filmography, one
/// film a line with the person's part; with the films' details (`--movies`), each line adds the film's year and
/// director(s), or why its detail could not be had (`movies`, by movie code).
package struct PersonScreen {
    package let width: Int
    package let style: TerminalStyle

    package init(width: Int, style: TerminalStyle) {
        (self.width, self.style) = (width, style)
    }

    package func render(_ person: Person, movies: [String: Result<Movie, BoxOfficeError>] = [:]) -> String {
        var screen = FieldLines(title: person.name, english: person.nameEnglish, width: width, style: style)
        screen.field("Role", person.role)
        screen.field("Sex", person.sex.map { $0 == .male ? "male (남자)" : "female (여자)" })
        screen.field("Homepage", person.homepages.joined(separator: ", "))
        screen.field("Code", person.peopleCode)
        screen.list(
            "Filmography (\(person.filmography.count))",
            person.filmography.map { film in
                var notes = film.part.map { [$0] } ?? []
                switch movies[film.movieCode] {
                case .success(let movie):
                    notes += [movie.productionYear.map(String.init), movie.directors.first.map { "dir. \($0.name)" }]
                        .compactMap { $0 }
                case .failure(let error): notes.append("detail: \(error.message)")
                case nil: break
                }
                return (
                    "\(DisplayWidth.fit(film.movieCode, to: 8))  \(film.title)",
                    notes.isEmpty ? nil : notes.joined(separator: ", ")
                )
            })
        return screen.text
    }
}
