package import BoxOfficeCore

/// A PNG card of a screen, for bots that post pictures: a box office or a search as the list (rank, change, title,
/// figures; a thumbnail when posters were downloaded) or the grid of poster cards, or a movie beside its poster.
/// Drawn from ``AnswerView``, as the chat formats and the page are, with cairo and Pango (``PangoCairo``) so Hangul
/// is shaped by a real font, which the card requires (without a Hangul font it is refused rather than drawn in
/// boxes; any other character no font has is drawn as a stand-in, and a text too long for a card is cut, said
/// through `warn`).
package struct CardRenderer {
    private let library: PangoCairo
    /// Pixels per point: 2, for the high-density screens chats are read on.
    package static let scale = 2.0

    /// Opens the libraries. - Throws: ``CardError`` naming the packages to install.
    package static func load() throws(CardError) -> CardRenderer {
        CardRenderer(library: try PangoCairo())
    }

    /// The card's PNG bytes: a list in `layout`, or a movie's screen. `posters` are the downloaded files by image
    /// address (others are placeholders).
    package func render(
        _ content: AnswerView, layout: ListLayout, posters: [String: PosterFile], warn: (String) -> Void = { _ in }
    ) throws(CardError) -> [UInt8] {
        let width: Double
        let draw: (CardCanvas) -> Double
        switch (content.kind, layout) {
        case (.boxOffice, .grid), (.search, .grid):
            let columns = Double(min(5, max(1, content.items.count)))
            width = 2 * Self.margin + columns * Self.tileWidth + (columns - 1) * Self.gap
            draw = { canvas in grid(content, canvas, width: width, columns: Int(columns), posters: posters) }
        case (.boxOffice, .list), (.search, .list):
            width = 720
            draw = { canvas in list(content, canvas, width: width, posters: posters) }
        case (.movie, _):
            width = 720
            draw = { canvas in movie(content, canvas, width: width, posters: posters) }
        case (.run, _), (.comparison, _):
            width = 720
            draw = { canvas in run(content, canvas, width: width) }
        }
        let measure = try CardCanvas(library, width: width, height: 1, scale: 1, measuring: true)
        let height = draw(measure).rounded(.up)
        if measure.missedHangul {
            throw CardError(
                "no installed font has Hangul (the card would show boxes): apt-get install fonts-noto-cjk")
        }
        if measure.cutTexts > 0 {
            warn(
                "the card cut \(measure.cutTexts) text\(measure.cutTexts == 1 ? "" : "s") longer than "
                    + "\(CardCanvas.longestText) characters")
        }
        let canvas = try CardCanvas(library, width: width, height: height, scale: Self.scale)
        _ = draw(canvas)
        return try canvas.png()
    }

    // MARK: - Screens

    private static let margin = 24.0
    private static let gap = 12.0
    private static let tileWidth = 148.0
    private static let rowHeight = 64.0

    /// The heading and where the figures come from; the height used.
    private func header(_ content: AnswerView, _ canvas: CardCanvas, width: Double) -> Double {
        canvas.box(0, 0, width, 10_000, Palette.background)
        var y = Self.margin
        let inner = width - 2 * Self.margin
        y += canvas.text(
            content.heading, Self.margin, y, width: inner, .init(font: Fonts.heading, colour: Palette.text, wraps: true)
        )
        if let subheading = content.subheading, !subheading.isEmpty {
            y +=
                2
                + canvas.text(
                    subheading, Self.margin, y + 2, width: inner, .init(font: Fonts.body, colour: Palette.dim))
        }
        if let source = content.source {
            y +=
                4 + canvas.text(source, Self.margin, y + 4, width: inner, .init(font: Fonts.small, colour: Palette.dim))
        }
        return y + 14
    }

    private func footer(_ canvas: CardCanvas, top: Double, width: Double) -> Double {
        let height = canvas.text(
            "영화진흥위원회 KOBIS 오픈API · boxoffice-worker", Self.margin, top, width: width - 2 * Self.margin,
            .init(font: Fonts.small, colour: Palette.dim, alignment: .right))
        return top + height + Self.margin
    }

    private func list(_ content: AnswerView, _ canvas: CardCanvas, width: Double, posters: [String: PosterFile])
        -> Double
    {
        var y = header(content, canvas, width: width)
        let thumbnails = content.items.contains { $0.imageURL.flatMap { posters[$0] } != nil }
        for item in content.items {
            // Where the title and the figures start, after the rank, the change and a thumbnail.
            let start =
                Self.margin + 12 + (item.rank == nil ? 0 : 42) + (item.change == nil ? 0 : 56) + (thumbnails ? 47 : 0)
            let inner = width - Self.margin - 12 - start
            // The figures wrap (a search's English title, years, genres and directors can be long): the row grows.
            let facts = item.facts.map { "\($0.name) \($0.value)" }.joined(separator: "  ·  ")
            let factsStyle = CardCanvas.TextStyle(font: Fonts.small, colour: Palette.dim, wraps: true)
            let factsHeight = canvas.text(facts, start, y + 36, width: inner, factsStyle, draw: false)
            let rowHeight = max(Self.rowHeight, 36 + factsHeight + 8)
            canvas.box(Self.margin, y, width - 2 * Self.margin, rowHeight, radius: 10, Palette.card)
            var x = Self.margin + 12
            if let rank = item.rank {
                canvas.text(
                    String(rank), x, y + 16, width: 34,
                    .init(font: Fonts.rank, colour: Palette.text, alignment: .right))
                x += 42
            }
            if let change = item.change {
                canvas.text(change, x, y + 22, width: 52, .init(font: Fonts.change, colour: Palette.change(item.trend)))
                x += 56
            }
            if thumbnails {
                if let url = item.imageURL, let file = posters[url],
                    canvas.image(file.path, x, y + 6, 35, 52, radius: 4)
                {
                } else {
                    canvas.box(x, y + 6, 35, 52, radius: 4, Palette.line)
                }
                x += 47
            }
            canvas.text(item.title, x, y + 10, width: inner, .init(font: Fonts.title, colour: Palette.text))
            canvas.text(facts, x, y + 36, width: inner, factsStyle)
            y += rowHeight + 8
        }
        return footer(canvas, top: y + 4, width: width)
    }

    private func grid(
        _ content: AnswerView, _ canvas: CardCanvas, width: Double, columns: Int, posters: [String: PosterFile]
    ) -> Double {
        let top = header(content, canvas, width: width)
        let posterHeight = Self.tileWidth * 1.5
        let tileHeight = posterHeight + 84
        let rows = (content.items.count + columns - 1) / columns
        for (index, item) in content.items.enumerated() {
            let x = Self.margin + Double(index % columns) * (Self.tileWidth + Self.gap)
            let y = top + Double(index / columns) * (tileHeight + Self.gap)
            canvas.box(x, y, Self.tileWidth, tileHeight, radius: 10, Palette.card)
            if let url = item.imageURL, let file = posters[url],
                canvas.image(file.path, x, y, Self.tileWidth, posterHeight, radius: 10)
            {
            } else {
                canvas.box(x, y, Self.tileWidth, posterHeight, radius: 10, Palette.line)
                canvas.text(
                    String(item.title.prefix(1)), x, y + posterHeight / 2 - 22, width: Self.tileWidth,
                    .init(font: Fonts.initial, colour: Palette.dim, alignment: .center))
            }
            var line = y + posterHeight + 8
            let inner = Self.tileWidth - 20
            var left = x + 10
            if let rank = item.rank {
                canvas.text(String(rank), left, line - 2, width: 30, .init(font: Fonts.rank, colour: Palette.text))
                left += 32
            }
            if let change = item.change {
                canvas.text(
                    change, left, line + 5, width: inner - 32,
                    .init(font: Fonts.change, colour: Palette.change(item.trend)))
            }
            line += 30
            canvas.text(item.title, x + 10, line, width: inner, .init(font: Fonts.tileTitle, colour: Palette.text))
            line += 22
            if let first = item.facts.first {
                canvas.text(first.value, x + 10, line, width: inner, .init(font: Fonts.small, colour: Palette.dim))
            }
        }
        return footer(canvas, top: top + Double(rows) * (tileHeight + Self.gap) + 4, width: width)
    }

    private func movie(_ content: AnswerView, _ canvas: CardCanvas, width: Double, posters: [String: PosterFile])
        -> Double
    {
        let top = header(content, canvas, width: width)
        let posterWidth = 200.0
        let posterHeight = 300.0
        if let url = content.imageURL, let file = posters[url],
            canvas.image(file.path, Self.margin, top, posterWidth, posterHeight, radius: 10)
        {
        } else {
            canvas.box(Self.margin, top, posterWidth, posterHeight, radius: 10, Palette.line)
            canvas.text(
                String(content.heading.prefix(1)), Self.margin, top + posterHeight / 2 - 22, width: posterWidth,
                .init(font: Fonts.initial, colour: Palette.dim, alignment: .center))
        }
        let x = Self.margin + posterWidth + 20
        let nameWidth = 84.0
        let valueWidth = width - Self.margin - x - nameWidth
        var y = top
        for field in content.fields {
            canvas.text(field.name, x, y, width: nameWidth, .init(font: Fonts.small, colour: Palette.dim))
            y +=
                8
                + canvas.text(
                    field.value, x + nameWidth, y - 1, width: valueWidth,
                    .init(font: Fonts.body, colour: Palette.text, wraps: true))
        }
        return footer(canvas, top: max(y, top + posterHeight) + 16, width: width)
    }
}

extension CardRenderer {
    /// A run, or runs compared: the heading, the chart (each listed day's running total as a column for one film,
    /// as a dot in the film's colour for several; a day in no list left empty; the cited milestones marked with
    /// their step), then the summary's fields or each film's row.
    private func run(_ content: AnswerView, _ canvas: CardCanvas, width: Double) -> Double {
        var y = header(content, canvas, width: width)
        let plot = (x: Self.margin + 96, width: width - 2 * Self.margin - 96 - 12, height: 220.0)
        let days = content.runs.flatMap(\.days)
        if let first = days.map(\.day).min(), let last = days.map(\.day).max() {
            let top = Double(max(1, days.compactMap { $0.figures?.audienceTotal }.max() ?? 1))
            let step = plot.width / Double(last - first + 1)
            canvas.box(Self.margin, y, width - 2 * Self.margin, plot.height + 40, radius: 10, Palette.card)
            let base = y + 12 + plot.height
            canvas.text(
                DisplayFormat.thousands(Int64(top)), Self.margin + 4, y + 8, width: 86,
                .init(font: Fonts.small, colour: Palette.dim, alignment: .right))
            canvas.box(plot.x, base, plot.width, 1, Palette.line)
            for (index, run) in content.runs.enumerated() {
                let colour = content.runs.count == 1 ? Palette.dim : Palette.series(index)
                for day in run.days {
                    guard let total = day.figures?.audienceTotal else { continue }
                    let height = max(1, plot.height * Double(total) / top)
                    let x = plot.x + Double(day.day - first) * step
                    if content.runs.count == 1 {
                        canvas.box(x, base - height, max(1, step - 1), height, colour)
                    } else {
                        canvas.box(x, base - height - 1.5, max(2, min(3, step)), 3, colour)
                    }
                }
                for milestone in RunChart.marked(run.milestones) {
                    let x = plot.x + Double(milestone.day - first) * step
                    let height = plot.height * Double(milestone.audience) / top
                    canvas.box(x - 1, base - height - 4, 6, 6, radius: 3, Palette.series(index))
                }
            }
            canvas.text(
                "day \(first)", plot.x, base + 6, width: 80, .init(font: Fonts.small, colour: Palette.dim))
            canvas.text(
                "day \(last)", plot.x + plot.width - 80, base + 6, width: 80,
                .init(font: Fonts.small, colour: Palette.dim, alignment: .right))
            y += plot.height + 56
        }
        let nameWidth = 150.0
        if content.kind == .run {
            for field in content.fields {
                canvas.text(field.name, Self.margin, y, width: nameWidth, .init(font: Fonts.small, colour: Palette.dim))
                y +=
                    8
                    + canvas.text(
                        field.value, Self.margin + nameWidth, y - 1, width: width - 2 * Self.margin - nameWidth,
                        .init(font: Fonts.body, colour: Palette.text, wraps: true))
            }
        } else {
            for (index, item) in content.items.enumerated() {
                canvas.box(Self.margin, y + 4, 10, 10, radius: 5, Palette.series(index))
                y +=
                    6
                    + canvas.text(
                        item.title, Self.margin + 18, y, width: width - 2 * Self.margin - 18,
                        .init(font: Fonts.body, colour: Palette.text))
                // Each fact kept on one line (no-break spaces inside it); the line breaks between facts.
                let facts = item.facts.map { String("\($0.name) \($0.value)".map { $0 == " " ? "\u{00A0}" : $0 }) }
                    .joined(separator: " · ")
                y +=
                    10
                    + canvas.text(
                        facts, Self.margin + 18, y, width: width - 2 * Self.margin - 18,
                        .init(font: Fonts.small, colour: Palette.dim, wraps: true))
            }
        }
        return footer(canvas, top: y + 16, width: width)
    }
}

/// The card's colours: the page's light theme, with the apps' rank colours (신작 pink, ▲ red, ▼ blue).
private enum Palette {
    static let background = CardCanvas.Colour(0xF6F6F8)
    static let card = CardCanvas.Colour(0xFFFFFF)
    static let text = CardCanvas.Colour(0x1C1C1E)
    static let dim = CardCanvas.Colour(0x6C6C70)
    static let line = CardCanvas.Colour(0xDCDCE0)

    /// A compared film's colour, as the page's chart gives it (``RunSVG``).
    static func series(_ index: Int) -> CardCanvas.Colour {
        let colours: [UInt32] = [0xD6336C, 0x1C7ED6, 0x2F9E44, 0xF59F00, 0x7048E8, 0x0C8599, 0xE8590C, 0x868E96]
        return CardCanvas.Colour(colours[index % colours.count])
    }

    static func change(_ trend: BoxOfficeEntry.Trend?) -> CardCanvas.Colour {
        switch trend {
        case .new: CardCanvas.Colour(0xD6336C)
        case .up: CardCanvas.Colour(0xD70015)
        case .down: CardCanvas.Colour(0x0040DD)
        case .same, nil: dim
        }
    }
}

/// Pango font descriptions: the CJK face first, then what fontconfig finds for sans-serif.
private enum Fonts {
    private static let family = "Noto Sans CJK KR,Noto Sans KR,NanumGothic,sans-serif"
    static let heading = "\(family) Bold 22px"
    static let body = "\(family) 15px"
    static let small = "\(family) 13px"
    static let rank = "\(family) Bold 22px"
    static let change = "\(family) Bold 14px"
    static let title = "\(family) Bold 17px"
    static let tileTitle = "\(family) Bold 14px"
    static let initial = "\(family) Bold 40px"
}

/// Why a card could not be drawn: the libraries or a Hangul font are missing (with the packages to install), or
/// cairo failed.
package struct CardError: Error, Sendable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
