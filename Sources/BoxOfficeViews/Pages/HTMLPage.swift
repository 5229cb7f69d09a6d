import BoxOfficeCore

/// A page of HTML for a box office, a movie or a search: one self-contained file (the stylesheet inline, no script,
/// posters as the caller gives their sources) that a browser shows as the apps' screens, from a phone's width to a
/// desktop's. Built from ``AnswerView``, the same content the chat formats say, so every output agrees.
package enum HTMLPage {
    /// Where each poster is shown from, by its image address: a `data:` URI of the downloaded file, a path beside
    /// the page, or nothing (the page then links the address itself).
    package typealias PosterSources = [String: String]

    /// The page of `content`: its list in `layout`, or its movie. A site's page links back to its `index`.
    package static func page(
        _ content: AnswerView, layout: ListLayout, posters: PosterSources = [:], index: String? = nil
    ) -> String {
        switch content.kind {
        case .boxOffice, .search: list(content, layout: layout, posters: posters, index: index)
        case .movie: movie(content, posters: posters)
        case .run, .comparison: run(content)
        }
    }

    /// A run or runs compared: the heading, the chart (inline SVG) and the summary's fields or the films' table.
    private static func run(_ content: AnswerView) -> String {
        var body = header(content)
        let titles =
            content.kind == .run
            ? [content.runs.first.map { AnswerView.text($0.title) } ?? ""] : content.items.map(\.title)
        body += RunSVG.chart(content.runs, titles: titles)
        if content.kind == .run {
            body += "<dl class=\"fields\">\n"
            for field in content.fields {
                body += "<dt>\(escaped(field.name))</dt><dd>\(escaped(field.value))</dd>\n"
            }
            body += "</dl>\n"
        } else {
            body += "<ol class=\"entries\">\n"
            for item in content.items { body += entry(item, posters: [:]) }
            body += "</ol>\n"
        }
        return document(title: content.heading, kind: content.kind.rawValue, body: body)
    }

    /// A box office or a search: the heading, the layout switch (`layout` checked) and one entry per item. A
    /// search's movies have no rank nor poster: its entries are plain, with no switch.
    private static func list(
        _ content: AnswerView, layout: ListLayout, posters: PosterSources, index: String?
    ) -> String {
        let kind = content.kind.rawValue
        var body = index.map { "<a class=\"back\" href=\"\(escaped($0))\">← 목록</a>\n" } ?? ""
        body += header(content)
        guard content.items.contains(where: { $0.rank != nil }) else {
            body += "<ol class=\"entries\">\n"
            for item in content.items { body += entry(item, posters: posters) }
            body += "</ol>\n"
            return document(title: content.heading, kind: kind, body: body)
        }
        for choice in ListLayout.allCases {
            let checked = choice == layout ? " checked" : ""
            body += "<input type=\"radio\" name=\"layout\" id=\"layout-\(choice.rawValue)\"\(checked)>\n"
        }
        body += "<nav class=\"layouts\" aria-label=\"Layout\">"
        body += "<label for=\"layout-list\">List</label><label for=\"layout-grid\">Grid</label></nav>\n"
        body += "<ol class=\"entries\">\n"
        for item in content.items { body += entry(item, posters: posters) }
        body += "</ol>\n"
        return document(title: content.heading, kind: kind, body: body)
    }

    /// A movie: its heading, the poster and its fields.
    private static func movie(_ content: AnswerView, posters: PosterSources) -> String {
        var body = header(content)
        body += "<div class=\"detail\">\n"
        body += poster(content.imageURL, alt: content.heading, posters: posters) + "\n"
        body += "<dl class=\"fields\">\n"
        for field in content.fields {
            body += "<dt>\(escaped(field.name))</dt><dd>\(escaped(field.value))</dd>\n"
        }
        body += "</dl>\n</div>\n"
        return document(title: content.heading, kind: content.kind.rawValue, body: body)
    }

    /// A whole document around `body`, inside `<main class="screen KIND">`.
    package static func document(title: String, kind: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="ko">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="generator" content="boxoffice-worker">
        <title>\(escaped(title))</title>
        <style>
        \(PageStyle.css)
        </style>
        </head>
        <body>
        <main class="screen \(kind)">
        \(body)</main>
        <footer>영화진흥위원회 KOBIS 오픈API · boxoffice-worker</footer>
        </body>
        </html>

        """
    }

    /// `text` as HTML text or an attribute's value: `&`, `<`, `>` and `"` as entities.
    package static func escaped(_ text: String) -> String { ChatText.entities(text, quotes: true) }

    private static func header(_ content: AnswerView) -> String {
        var header = "<h1>\(escaped(content.heading))</h1>\n"
        if let subheading = content.subheading, !subheading.isEmpty {
            header += "<p class=\"subheading\">\(escaped(subheading))</p>\n"
        }
        if let source = content.source { header += "<p class=\"source\">\(escaped(source))</p>\n" }
        return header
    }

    private static func entry(_ item: AnswerView.Item, posters: PosterSources) -> String {
        var line = item.rank == nil ? "<li class=\"entry plain\"" : "<li class=\"entry\""
        if let rank = item.rank { line += " data-rank=\"\(rank)\"" }
        line += " data-movie-code=\"\(escaped(item.movieCode))\">"
        if item.rank != nil { line += poster(item.imageURL, alt: item.title, posters: posters) }
        if let rank = item.rank { line += "<span class=\"rank\">\(rank)</span>" }
        if let change = item.change {
            line += "<span class=\"change \(changeClass(item.trend))\">\(escaped(change))</span>"
        }
        line += "<span class=\"title\">\(escaped(item.title))</span>"
        if !item.facts.isEmpty {
            line += "<dl class=\"facts\">"
            for fact in item.facts {
                line += "<div><dt>\(escaped(fact.name))</dt><dd class=\"\(factClass(fact.name))\">"
                line += "\(escaped(fact.value))</dd></div>"
            }
            line += "</dl>"
        }
        return line + "</li>\n"
    }

    /// The poster's `<img>` (lazily loaded; from its source in `posters`, else its address), or a placeholder of
    /// the same shape when there is none.
    private static func poster(_ url: String?, alt: String, posters: PosterSources) -> String {
        guard let url else { return "<span class=\"poster placeholder\" aria-hidden=\"true\"></span>" }
        let source = posters[url] ?? url
        return "<img class=\"poster\" src=\"\(escaped(source))\" alt=\"\(escaped(alt))\" loading=\"lazy\">"
    }

    private static func changeClass(_ trend: BoxOfficeEntry.Trend?) -> String {
        switch trend {
        case .new: "new"
        case .up: "up"
        case .down: "down"
        case .same, nil: "same"
        }
    }

    /// A fact's class: its name in lower case, spaces as hyphens (`audience`, `total`, `share`, `english-title`).
    private static func factClass(_ name: String) -> String {
        String(name.lowercased().map { $0 == " " ? "-" : $0 })
    }
}
