import JSONCore

/// The index of a static site of box office pages (`--from/--to … --format html --out DIR`): one link per page,
/// newest first, with the day's heading and its number one.
///
/// The pages the site holds are listed in `DIR/pages.json`, which every run reads and writes back with its own
/// pages added (a page written again replaces its line): a cron job that writes yesterday's page each morning grows
/// one site, and the index never has to read the pages back.
package struct SiteIndex: Sendable, Equatable {
    /// A page of the site.
    package struct Page: Sendable, Equatable {
        /// The page's file name beside the index (`2026-11-20.html`); also what orders the pages.
        package var file: String
        package var heading: String
        /// The number one's title, when the box office had entries.
        package var top: String?

        package init(file: String, heading: String, top: String?) {
            (self.file, self.heading, self.top) = (file, heading, top)
        }
    }

    package private(set) var pages: [Page] = []
    package var title: String
    /// What its pages are (``CLISession/siteKind(_:_:)``): one kind a folder; nil in a manifest from before.
    package var kind: String?

    package init(title: String, pages: [Page] = []) {
        self.title = title
        for page in pages { add(page) }
    }

    /// Adds `page`, replacing one of the same file.
    package mutating func add(_ page: Page) {
        pages.removeAll { $0.file == page.file }
        pages.append(page)
        pages.sort { $0.file > $1.file }
    }

    /// The manifest's text.
    package var manifest: String {
        let list = JSONValue.array(
            pages.map { page in
                var object: JSONObject = ["file": .string(page.file), "heading": .string(page.heading)]
                if let top = page.top { object["top"] = .string(top) }
                return .object(object)
            })
        var manifest: JSONObject = ["title": .string(title)]
        if let kind { manifest["kind"] = .string(kind) }
        manifest["pages"] = list
        return JSONSerializer.string(.object(manifest)) + "\n"
    }

    /// The manifest in `text`, or nil when it is not one (the caller then starts a new one and says so).
    package init?(manifest text: String) {
        guard let value = try? JSONParser.parse(text), let object = value.objectValue,
            let pages = object["pages"]?.arrayValue
        else { return nil }
        self.init(title: object["title"]?.stringValue ?? "박스오피스")
        kind = object["kind"]?.stringValue
        for page in pages {
            guard let file = page["file"]?.stringValue, let heading = page["heading"]?.stringValue,
                Self.isPageName(file)
            else { return nil }
            add(Page(file: file, heading: heading, top: page["top"]?.stringValue))
        }
    }

    /// A name the index may link: only a name the site itself writes, `YYYY-MM-DD.html` or
    /// `week|weekend|weekdays-YYYY-MM-DD.html`. A manifest is a file anyone who can write the folder can edit, and
    /// its names become links: `javascript:alert(1)-'.html` or `https:\\evil.example\x.html` must never be one.
    package static func isPageName(_ name: String) -> Bool {
        guard name.hasSuffix(".html") else { return false }
        var stem = Substring(name.dropLast(5))
        for period in ["week-", "weekend-", "weekdays-"] where stem.hasPrefix(period) {
            stem = stem.dropFirst(period.count)
            break
        }
        let bytes = Array(stem.utf8)
        guard bytes.count == 10 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7
                ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// The index page.
    package var html: String {
        var body = "<h1>\(HTMLPage.escaped(title))</h1>\n<p class=\"source\">\(pages.count) pages</p>\n"
        body += "<ul class=\"days\">\n"
        for page in pages {
            body += "<li><a href=\"\(HTMLPage.escaped(page.file))\">\(HTMLPage.escaped(page.heading))</a>"
            if let top = page.top { body += "<span class=\"top\">1위 \(HTMLPage.escaped(top))</span>" }
            body += "</li>\n"
        }
        body += "</ul>\n"
        return HTMLPage.document(title: title, kind: "site", body: body)
    }
}
