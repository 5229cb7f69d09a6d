import BoxOfficeCore
import BoxOfficeViews
import BoxOfficeWorker
import Foundation
import Testing

/// The HTML pages and the static site's index, read as text: what a browser is given (the browser's own reading is
/// Tests/Web's, in headless Chromium).
@Suite("Pages")
struct PageTests {
    /// A content whose title, code and facts carry every character HTML gives a meaning to.
    static let hostile = AnswerView(
        .boxOffice, heading: "<b>\"주간\" & 'box'</b>", subheading: nil, source: "fixture",
        items: [
            .init(
                rank: 1, change: "▲3", trend: .up, title: "<script>alert(1)</script> & \"따옴표\"",
                movieCode: "\"><img src=x>", facts: [.init(name: "Audience", value: "1,234")],
                imageURL: "https://example.com/a.jpg?x=\"1\"&y=<2>")
        ])

    @Test("every recorded day's page holds each entry once, with its rank, change, title and audience")
    func everyEntry() async throws {
        for (name, content) in try await ChatFormatTests.recorded() where !content.items.isEmpty {
            let page = HTMLPage.page(content, layout: .list)
            #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"ko\">"), "\(name)")
            #expect(page.components(separatedBy: "<li class=\"entry").count - 1 == content.items.count, "\(name)")
            for item in content.items {
                #expect(page.contains("data-movie-code=\"\(item.movieCode)\""), "\(name)")
                #expect(page.contains("<span class=\"title\">\(HTMLPage.escaped(item.title))</span>"))
                if let change = item.change { #expect(page.contains(">\(change)</span>"), "\(name)") }
                if let audience = item.facts.first(where: { $0.name == "Audience" }) {
                    #expect(page.contains("<dd class=\"audience\">\(audience.value)</dd>"), "\(name)")
                }
            }
        }
    }

    @Test("the layout asked for is the one checked, and the page has no script")
    func layoutChecked() {
        let grid = HTMLPage.page(Self.hostile, layout: .grid)
        #expect(grid.contains("id=\"layout-grid\" checked>"))
        #expect(grid.contains("id=\"layout-list\">"))
        let list = HTMLPage.page(Self.hostile, layout: .list)
        #expect(list.contains("id=\"layout-list\" checked>"))
        #expect(!list.lowercased().contains("<script"))
    }

    @Test("text and attributes are escaped: a title, a code or an address cannot open an element")
    func escaping() {
        let page = HTMLPage.page(Self.hostile, layout: .grid)
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<img src=x>"))
        #expect(!page.contains("<b>\"주간"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;따옴표&quot;"))
        #expect(page.contains("src=\"https://example.com/a.jpg?x=&quot;1&quot;&amp;y=&lt;2&gt;\""))
    }

    @Test("a poster's source given by the caller replaces its address; a missing poster is a placeholder")
    func posters() {
        let url = Self.hostile.items[0].imageURL!
        let embedded = HTMLPage.page(
            Self.hostile, layout: .grid, posters: [url: "data:image/jpeg;base64,AAAA"])
        #expect(embedded.contains("src=\"data:image/jpeg;base64,AAAA\""))
        var none = Self.hostile
        none.items[0].imageURL = nil
        #expect(HTMLPage.page(none, layout: .grid).contains("class=\"poster placeholder\""))
    }

    @Test("the site's manifest keeps its pages, newest first, a page written again once")
    func manifestRoundTrip() throws {
        var index = SiteIndex(title: "일별 박스오피스")
        index.add(.init(file: "2023-04-23.html", heading: "A", top: "존 윅 4"))
        index.add(.init(file: "2023-04-26.html", heading: "B", top: "드림"))
        index.add(.init(file: "2023-04-23.html", heading: "A2", top: nil))
        #expect(index.pages.map(\.file) == ["2023-04-26.html", "2023-04-23.html"])
        let read = try #require(SiteIndex(manifest: index.manifest))
        #expect(read == index)
        #expect(index.html.contains("<a href=\"2023-04-26.html\">B</a><span class=\"top\">1위 드림</span>"))
    }

    @Test("a manifest naming a page outside the folder, or not a manifest at all, is refused")
    func manifestRefused() {
        for file in ["../etc/passwd.html", "/tmp/x.html", "index.html", ".hidden.html", "page.php"] {
            let text = "{\"title\":\"t\",\"pages\":[{\"file\":\"\(file)\",\"heading\":\"h\"}]}"
            #expect(SiteIndex(manifest: text) == nil, "\(file)")
        }
        #expect(SiteIndex(manifest: "[]") == nil)
        #expect(SiteIndex(manifest: "not json") == nil)
    }
}
