package import BoxOfficeCore

/// A company's screen, in the movie detail screen's style: names, CEO, parts, then the filmography, one film a line
/// with the company's parts in it.
package struct CompanyScreen {
    package let width: Int
    package let style: TerminalStyle

    package init(width: Int, style: TerminalStyle) {
        self.width = width
        self.style = style
    }

    package func render(_ company: Company) -> String {
        var screen = FieldLines(title: company.name, english: company.nameEnglish, width: width, style: style)
        screen.field("CEO", company.ceo)
        screen.field("Parts", company.parts.joined(separator: ", "))
        screen.field("Code", company.companyCode)
        screen.list(
            "Filmography (\(company.filmography.count))",
            company.filmography.map { film in
                (
                    "\(DisplayWidth.fit(film.movieCode, to: 8))  \(film.title)",
                    film.parts.isEmpty ? nil : film.parts.joined(separator: ", ")
                )
            })
        return screen.text
    }
}
