package import BoxOfficeCore

/// The view model of an answer: what every presentation says before any format (a heading, where the figures come
/// from, and either the items of a list, a box office's entries or a search's movies, or one movie's fields). Built
/// from the domain's values the methods answer with, so a screen, a chat message, a page and a card say the same
/// thing; every upstream text in it is already made harmless.
package struct AnswerView: Sendable {
    /// What the answer is, which decides the screen a page or a card draws (and the page's `<main>` class).
    package enum Kind: String, Sendable {
        case boxOffice = "boxoffice"
        case search
        case movie
        /// A film's run (`movie.run`).
        case run
        /// Runs side by side (`movie.compare`).
        case comparison = "compare"
    }

    /// A named value: "Audience" and "93,416", "Director" and "이병헌".
    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String

        /// Both made harmless (``AnswerView/text(_:)``).
        package init(name: String, value: String) {
            self.name = AnswerView.text(name)
            self.value = AnswerView.text(value)
        }
    }

    /// A row of a list.
    package struct Item: Sendable {
        /// The rank, for a box office.
        package var rank: Int?
        /// 신작, ▲n, ▼n or - (a box office's entry); nil for a search's movie.
        package var change: String?
        package var trend: BoxOfficeEntry.Trend?
        package var title: String
        package var movieCode: String
        /// What a row says besides its title, in order.
        package var facts: [Field]
        /// The poster's address, when it was asked for and found.
        package var imageURL: String?

        /// The title made harmless, the address kept only when it is one to show (``AnswerView/link(_:)``).
        package init(
            rank: Int? = nil, change: String? = nil, trend: BoxOfficeEntry.Trend? = nil, title: String,
            movieCode: String, facts: [Field], imageURL: String? = nil
        ) {
            (self.rank, self.change, self.trend, self.title) = (rank, change, trend, AnswerView.text(title))
            (self.movieCode, self.facts, self.imageURL) = (movieCode, facts, AnswerView.link(imageURL))
        }
    }

    package var kind: Kind
    /// The box office's label and period, the movie's title, or the search.
    package var heading: String
    /// The movie's English title.
    package var subheading: String?
    /// Where the figures come from: `kobis, fetched …`, `cache, fetched …`, `fixture, recorded …`.
    package var source: String?
    package var items: [Item] = []
    package var fields: [Field] = []
    /// The movie's poster.
    package var imageURL: String?
    /// The runs a run's or a comparison's chart draws (their texts made harmless where they are shown).
    package var runs: [FilmRun] = []

    /// The texts made harmless, the address kept only when it is one to show.
    package init(
        _ kind: Kind, heading: String, subheading: String? = nil, source: String? = nil, items: [Item] = [],
        fields: [Field] = [],
        imageURL: String? = nil
    ) {
        self.kind = kind
        (self.heading, self.subheading, self.source) = (Self.text(heading), subheading.map(Self.text), source)
        (self.items, self.fields, self.imageURL) = (items, fields, Self.link(imageURL))
    }

    /// Every poster address the view shows (its items' and its own), for the downloads a page or a card draws.
    package var posterURLs: Set<String> {
        Set(items.compactMap(\.imageURL) + [imageURL].compactMap { $0 })
    }

    /// An upstream's text as every chat format, page and card takes it: its acting characters as visible
    /// stand-ins (``TerminalText``). A newline in a title would end a Markdown table's row, a control character
    /// would refuse a card, a bidi override would show a message in another order; each format then escapes its
    /// own markup.
    package static func text(_ text: String) -> String {
        TerminalText.clean(text)
    }

    /// `url` when it is an address a chat, a page or a card may show: `http` or `https`, without spaces or
    /// controls. Anything else (`javascript:`, `data:`, a relative path) is left out: a service would refuse the
    /// whole message for it, and a page must never link it.
    package static func link(_ url: String?) -> String? {
        guard let url, url.utf8.count <= 2048 else { return nil }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard
            url.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value != 0x7F && TerminalText.standIn(for: $0) == nil
            })
        else { return nil }
        return url
    }
}

extension AnswerView {
    /// A box office: one item per entry (rank, change, audience, total, share), with each entry's poster address
    /// from `posters` (in entry order; nil or missing: none).
    package init(_ office: BoxOffice, posters: [String?] = []) {
        let days =
            office.start == office.end
            ? "\(office.start) (\(ViewFormat.weekday(office.start)))" : "\(office.start) – \(office.end)"
        self.init(.boxOffice, heading: "\(office.label) · \(days)", source: ViewFormat.origin(office.source))
        items = office.entries.enumerated().map { index, entry in
            Item(
                rank: entry.rank, change: DisplayFormat.rankChange(trend: entry.trend, change: entry.rankChange),
                trend: entry.trend, title: entry.title, movieCode: entry.movieCode,
                facts: [
                    Field(name: "Audience", value: DisplayFormat.thousands(entry.audience.amount)),
                    Field(name: "Total", value: DisplayFormat.thousands(entry.audience.total)),
                    Field(name: "Share", value: ViewFormat.percent(entry.salesShare)),
                ],
                imageURL: index < posters.count ? posters[index] : nil)
        }
    }

    /// A movie's details, as the CLI's detail screen lists them, with its poster when it was found.
    package init(_ movie: Movie, poster: PosterSearch? = nil) {
        self.init(.movie, heading: movie.title, subheading: movie.titleEnglish, source: ViewFormat.origin(movie.source))
        let candidates: [(String, String?)] = [
            ("Director", movie.directors.map(\.name).joined(separator: ", ")),
            ("Year", movie.productionYear.map(String.init)),
            ("Opening", movie.openDate?.description),
            ("Runtime", movie.runtimeMinutes.map { "\($0) min" }),
            ("Grade", movie.watchGrade),
            ("Nations", movie.nations.joined(separator: ", ")),
            ("Genres", movie.genres.joined(separator: ", ")),
            (
                "Actors",
                movie.actors.prefix(8).map { actor in actor.role.map { "\(actor.name) (\($0))" } ?? actor.name }
                    .joined(separator: ", ")
            ),
            ("Code", movie.movieCode),
        ]
        fields = candidates.compactMap { name, value in
            guard let value, !value.isEmpty else { return nil }
            return Field(name: name, value: value)
        }
        imageURL = Self.link(poster?.image?.url)
    }

    /// A page of movie.search: one item per movie (year, genres, directors).
    package init(_ search: MovieSearch, query: String) {
        self.init(.search, heading: "영화 검색 · \(query) · \(search.total) found, page \(search.page)")
        items = search.movies.map { movie in
            let facts: [(String, String?)] = [
                ("English title", movie.titleEnglish),
                ("Year", movie.productionYear.map(String.init)),
                ("Genres", movie.genres.joined(separator: ", ")),
                ("Directors", movie.directors.joined(separator: ", ")),
                ("Code", movie.movieCode),
            ]
            return Item(
                title: movie.title, movieCode: movie.movieCode,
                facts: facts.compactMap { name, value in
                    guard let value, !value.isEmpty else { return nil }
                    return Field(name: name, value: value)
                })
        }
    }
}
