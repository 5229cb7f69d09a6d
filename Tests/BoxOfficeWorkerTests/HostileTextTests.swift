import BoxOfficeCore
import BoxOfficeViews
import BoxOfficeWorker
import JSONCore
import Testing

/// Titles, names and addresses from an upstream, each built to act rather than show, through every writer of human
/// output: the terminal's cells and screens, CSV, each chat format and the HTML page.
@Suite("Hostile text")
struct HostileTextTests {
    /// The hostile strings, by name.
    static let table: [(name: String, text: String)] = [
        (
            "terminal",
            "\u{1B}]52;c;cHduZWQ=\u{07} \u{1B}[2J\u{1B}[31mRED \u{9B}31m \u{07}BEL "
                + "\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\"
        ),
        ("nul", "a\u{0}b"),
        ("newline", "line one\nline two\r\nthree"),
        ("rtl", "abc\u{202E}dcba\u{2066}x\u{2069} \u{2028}"),
        ("slack", "<!channel> <http://evil.example|click here> <!here> <@U123>"),
        ("markup", "**bold** _x_ [link](http://evil.example) <b>x</b> | pipe |"),
        ("formula", "=HYPERLINK(\"http://evil.example\",\"x\")"),
        ("family", String(repeating: "👩‍👩‍👧‍👦", count: 3000)),
        ("long", String(repeating: "가", count: 10_000)),
    ]

    /// Whether `text` holds anything but printing characters (a tab and line breaks allowed when told).
    static func acting(_ text: String, lineBreaks: Bool = false) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            if scalar == "\t" || (lineBreaks && scalar == "\n") { return false }
            return TerminalText.standIn(for: scalar) != nil
        }
    }

    @Test("a cleaned text has no acting character left, and says each with its stand-in", arguments: table)
    func cleaned(_ row: (name: String, text: String)) {
        let clean = TerminalText.clean(row.text)
        #expect(Self.acting(clean).isEmpty, "\(row.name)")
        #expect(TerminalText.clean(clean) == clean, "cleaning is idempotent: \(row.name)")
        #expect(TerminalText.clean("\u{1B}[31mRED") == "␛[31mRED")
        #expect(TerminalText.clean("a\u{0}b\u{7F}\u{9B}\u{202E}\tc\n") == "a␀b␡\u{FFFD}\u{FFFD}\tc␊")
        #expect(TerminalText.clean("\t", for: .cell) == "␉")
        #expect(TerminalText.clean("드림 John Wick 4 🎬") == "드림 John Wick 4 🎬")
    }

    @Test("a cell counts the stand-ins it shows, so a hostile title keeps the columns in line", arguments: table)
    func cells(_ row: (name: String, text: String)) {
        for width in [8, 20, 40] {
            let cell = DisplayWidth.fit(row.text, to: width)
            #expect(Self.acting(cell).isEmpty, "\(row.name)")
            #expect(DisplayWidth.of(cell) == width, "\(row.name) in \(width)")
        }
        #expect(DisplayWidth.of("a\u{1B}b") == 3)
        #expect(DisplayWidth.of("\r\n") == 2)
    }

    @Test("a screen keeps its line breaks and the colours it painted, and nothing else that acts")
    func screens() {
        let style = TerminalStyle(enabled: true)
        let painted = style.red("▲") + "1 " + style.bold("드림") + "\n" + style.dim("x") + "\n"
        #expect(TerminalText.screen(painted) == painted)
        let forged = "title \u{1B}[2J\u{1B}]52;c;eA==\u{07}\u{1B}[31m red\u{9B}31m\n"
        #expect(TerminalText.screen(forged) == "title ␛[2J␛]52;c;eA==␇\u{1B}[31m red\u{FFFD}31m\n")
    }

    @Test("the list and the detail screen: every row one line, nothing acts, the figures in one column")
    func renderedScreens() async throws {
        let titles = Self.table.map(\.text)
        let office = try await ChatFormatTests.office(titled: Array(titles.prefix(10)))
        let style = TerminalStyle(enabled: true)
        let screen = TerminalText.screen(BoxOfficeScreen(width: 100, style: style).render(office, layout: .list))
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        // The header, a blank line, the column heads, one row per entry.
        #expect(lines.count == 3 + office.entries.count)
        for line in lines {
            let visible = line.replacing(#/\x{1B}\[[0-9]+m/#, with: "")
            #expect(Self.acting(String(visible)).isEmpty, "\(line)")
        }
        let rows = lines.suffix(office.entries.count).map { String($0.replacing(#/\x{1B}\[[0-9]+m/#, with: "")) }
        let ends = Set(rows.map { row in DisplayWidth.of(row.prefix { $0 != "%" }) })
        #expect(ends.count == 1, "the share column ends in the same place on every row: \(rows)")
        let grid = TerminalText.screen(BoxOfficeScreen(width: 100, style: style).render(office, layout: .grid))
        #expect(Self.acting(String(grid.replacing(#/\x{1B}\[[0-9]+m/#, with: "")), lineBreaks: true).isEmpty)
    }

    @Test("a CSV cell neither acts nor runs: formulas start with ', numbers stay numbers", arguments: table)
    func csv(_ row: (name: String, text: String)) {
        let line = CSVText.row([row.text, "-3", "+1.5", "93416"])
        #expect(line.hasSuffix(",-3,+1.5,93416\r\n"), "\(row.name)")
        #expect(Self.acting(String(line.dropLast(2))).isEmpty, "\(row.name)")
        for formula in ["=1+2", "+1+2", "-2+3", "@SUM(A1)", "\tstart", "\rstart", "=HYPERLINK(\"x\",\"y\")"] {
            let cell = CSVText.row([formula]).dropLast(2)
            #expect(cell.hasPrefix("'") || cell.hasPrefix("\"'"), "\(formula): \(cell)")
        }
        #expect(CSVText.row(["a,b", "say \"hi\""]) == "\"a,b\",\"say \"\"hi\"\"\"\r\n")
        #expect(CSVText.row(["-", "+", "-.5", "1.", "--"]) == "-,+,'-.5,1.,'--\r\n")
    }

    /// Every string of every chat format's messages.
    static func strings(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let items): items.flatMap(strings)
        case .object(let members): members.flatMap { strings($0.value) }
        default: []
        }
    }

    /// The texts of the `mrkdwn` objects in a Slack message.
    static func mrkdwn(_ value: JSONValue) -> [String] {
        switch value {
        case .array(let items): return items.flatMap(mrkdwn)
        case .object(let members):
            if members["type"] == "mrkdwn", let text = members["text"]?.stringValue { return [text] }
            return members.flatMap { mrkdwn($0.value) }
        default: return []
        }
    }

    static func content(_ title: String, image: String? = "http://127.0.0.1:1/p.jpg?a=)(b") async throws
        -> AnswerView
    {
        let office = try await ChatFormatTests.office(titled: Array(repeating: title, count: 10))
        return AnswerView(office, posters: Array(repeating: image, count: 10))
    }

    @Test("Slack: every text it parses escapes <, > and &, the notification text too", arguments: table)
    func slack(_ row: (name: String, text: String)) async throws {
        // A search's query is echoed in the heading (and the notification text).
        let search = AnswerView(.search, heading: "영화 검색 · \(row.text) · 0 found, page 1")
        for content in [try await Self.content(row.text), search] {
            for message in ChatFormat.slack.messages(content) {
                let body = try #require(message.body)
                let text = try #require(body["text"]?.stringValue)
                #expect(!text.contains("<") && !text.contains(">"), "\(row.name): \(text.prefix(80))")
                #expect(text.unicodeScalars.count <= 3000)
                for string in Self.strings(.object(body)) {
                    #expect(Self.acting(string, lineBreaks: true).isEmpty, "\(row.name)")
                }
                // Plain text (the header, an image's alt text) is shown as written; mrkdwn is parsed.
                for string in Self.mrkdwn(.object(body)) {
                    #expect(!string.contains("<") && !string.contains(">"), "\(row.name): \(string.prefix(80))")
                }
            }
        }
    }

    @Test("Telegram: within 4,096 UTF-16 units, never a half grapheme, every message checked", arguments: table)
    func telegram(_ row: (name: String, text: String)) async throws {
        let content = try await Self.content(row.text)
        for format in [ChatFormat.telegram, .telegramHTML] {
            for text in ChatFormatTests.texts(content, format) {
                #expect(text.utf16.count <= 4096, "\(row.name) \(format): \(text.utf16.count)")
                #expect(Self.acting(text, lineBreaks: true).isEmpty, "\(row.name)")
                if format == .telegram { #expect(MarkdownV2Check.problems(text) == [], "\(row.name)") }
                // A cut family emoji is whole or gone: no woman left without her family's joiners.
                #expect(!text.contains("👩\u{200D}👩…"))
            }
        }
    }

    @Test("Discord: within its limits by its count, no mention or markup opens", arguments: table)
    func discord(_ row: (name: String, text: String)) async throws {
        for message in ChatFormat.discord.messages(try await Self.content(row.text)) {
            let body = try #require(message.body)
            #expect(body["allowed_mentions"] == ["parse": []])
            #expect((body["content"]?.stringValue?.unicodeScalars.count ?? 0) <= 2000)
            for embed in body["embeds"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                #expect((embed["title"]?.stringValue?.unicodeScalars.count ?? 0) <= 256, "\(row.name)")
                #expect((embed["description"]?.stringValue?.unicodeScalars.count ?? 0) <= 4096)
                let title = embed["title"]?.stringValue ?? ""
                #expect(!title.contains(#/(^|[^\\])</#), "\(row.name): \(title.prefix(80))")
            }
            for string in Self.strings(.object(body)) { #expect(Self.acting(string, lineBreaks: true).isEmpty) }
        }
    }

    @Test("Markdown: one table row a title, the image's address inside its link", arguments: table)
    func markdown(_ row: (name: String, text: String)) async throws {
        var content = try await Self.content(row.text)
        let text = try #require(ChatFormat.markdown.messages(content).first?.text)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(rows.count == 2 + 10, "\(row.name)")
        #expect(rows.allSatisfy { $0.hasSuffix("|") })
        #expect(Self.acting(text, lineBreaks: true).isEmpty)
        content.fields = [.init(name: "Title", value: row.text)]
        content.imageURL = "http://127.0.0.1:1/p.jpg?a=)(b c"
        let movie = try #require(ChatFormat.markdown.messages(content).first?.text)
        #expect(movie.contains("![poster](http://127.0.0.1:1/p.jpg?a=%29%28b%20c)"))
    }

    @Test(
        "an address that is not http or https is in no message and no page",
        arguments: [
            "javascript:alert(1)", "data:image/png;base64,AAAA", "JAVASCRIPT:alert(1)", "http://a b", "http://x\n.y",
            "/relative.jpg",
        ])
    func addresses(_ address: String) async throws {
        let content = try await Self.content("드림", image: address)
        #expect(content.items.allSatisfy { $0.imageURL == nil })
        for format in ChatFormat.allCases {
            for message in format.messages(content) {
                let strings = message.text.map { [$0] } ?? Self.strings(message.body.map(JSONValue.object) ?? .null)
                #expect(!strings.contains { $0.contains(address) }, "\(format)")
            }
        }
        let page = HTMLPage.page(content, layout: .grid)
        #expect(!page.contains(address))
    }

    @Test("the HTML page escapes every hostile title and shows its stand-ins", arguments: table)
    func page(_ row: (name: String, text: String)) async throws {
        let page = HTMLPage.page(try await Self.content(row.text), layout: .list)
        #expect(!page.contains("<b>x</b>") && !page.contains("\u{1B}"))
        #expect(Self.acting(page, lineBreaks: true).isEmpty, "\(row.name)")
    }
}
