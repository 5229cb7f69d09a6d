import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import BoxOfficeWorker
import JSONCore
import JSONSchema
import TestSupport
import Testing
import WorkerTestSupport

/// The chat formats against the services' published rules, over every recorded day, week and movie and over titles
/// made of the characters that break them.
@Suite("Chat formats")
struct ChatFormatTests {
    static let days = ["2022-01-05", "2023-04-23", "2023-04-26"]
    static let movies = ["20198482", "20227890", "20124079", "20231106", "20112207"]

    /// What every recorded day, the recorded weekend and the recorded movies say, as chat contents.
    static func recorded() async throws -> [(String, AnswerView)] {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let service = worker.runtime.service
        var contents: [(String, AnswerView)] = []
        for day in days {
            let office = try await service.boxOffice(
                try service.plan(BoxOfficeRequest(span: .daily(CalendarDate(day)), limit: 10))
            ).value
            contents.append((day, AnswerView(office)))
        }
        let weekend = try await service.boxOffice(
            try service.plan(BoxOfficeRequest(span: .weekly(CalendarDate("2012-01-01"), .weekend), limit: 10))
        ).value
        contents.append(("weekend 2012-01-01", AnswerView(weekend)))
        for code in movies {
            contents.append((code, AnswerView(try await service.movie(code: code))))
        }
        let search = try await service.search(title: "범죄와의 전쟁", director: nil, year: nil)
        contents.append(("search", AnswerView(search, query: "범죄와의 전쟁")))
        return contents
    }

    static func texts(_ content: AnswerView, _ format: ChatFormat) -> [String] {
        format.messages(content).compactMap { message in
            if case .body(let body) = message { return body["text"]?.stringValue }
            return nil
        }
    }

    @Test("every Telegram message of every recorded day, week, movie and search passes the MarkdownV2 check")
    func telegramRecorded() async throws {
        for (name, content) in try await Self.recorded() {
            let messages = Self.texts(content, .telegram)
            #expect(!messages.isEmpty, "\(name)")
            for text in messages {
                #expect(MarkdownV2Check.problems(text) == [], "\(name): \(text)")
                #expect(text.utf16.count <= 4096, "\(name)")
            }
        }
    }

    @Test("over JSON-RPC, the chat param adds the same messages the CLI writes, valid against the result schemas")
    func overJSONRPC() async throws {
        let calls: [(String, JSONValue, ChatFormat)] = [
            ("boxoffice.daily", ["date": "2023-04-26", "chat": "telegram"], .telegram),
            ("boxoffice.weekly", ["date": "2012-01-01", "chat": "slack"], .slack),
            ("movie.detail", ["movieCode": "20198482", "chat": "discord"], .discord),
            ("movie.search", ["title": "범죄와의 전쟁", "chat": "markdown"], .markdown),
            ("boxoffice.daily", ["date": "2023-04-26", "chat": "telegram-html", "include": ["poster"]], .telegramHTML),
        ]
        let lines = calls.enumerated().map { request(.int($0.offset), $0.element.0, params: $0.element.1) }
        let out = try await OfflineWorker(["--ordered", "--today", "2026-11-21"]).jsonRPC.json(lines)
        let recorded = try await Self.recorded()
        let expected: [AnswerView] = [
            recorded[2].1, recorded[3].1, try #require(recorded.first { $0.0 == "20198482" }?.1),
            try #require(recorded.first { $0.0 == "search" }?.1), recorded[2].1,
        ]
        for (index, call) in calls.enumerated() {
            let result = try #require(out[index]["result"], "\(call.0): \(out[index])")
            let schema = try SchemaCatalog.compiled("\(call.0).result.schema.json")
            #expect(schema.validate(result).isEmpty, "\(call.0): \(schema.validate(result))")
            #expect(result[at: "/chat/format"] == .string(call.2.rawValue))
            #expect(result[at: "/chat/messages"] == .array(call.2.messages(expected[index]).map(\.json)), "\(call.0)")
        }
        // Without the param, no chat member.
        let plain = try await OfflineWorker(["--today", "2026-11-21"]).jsonRPC.json([
            request(1, "boxoffice.daily", params: ["date": "2023-04-26"])
        ])
        #expect(plain[0][at: "/result/chat"] == nil)
        let wrong = try await OfflineWorker(["--today", "2026-11-21"]).jsonRPC.json([
            request(1, "movie.detail", params: ["movieCode": "20198482", "chat": "irc"])
        ])
        #expect(wrong[0][at: "/error/code"] == -32602)
    }

    @Test("the MarkdownV2 check rejects what Telegram rejects and passes what it takes")
    func markdownV2Check() {
        for bad in ["31.6%", "*bold", "_a*b_*", "[a](b", "a]", "x|y", "`co\\de`", "end\\", "(a)", "a-b", "!", "{}"] {
            #expect(MarkdownV2Check.problems(bad) != [], "\(bad)")
        }
        for good in ["31\\.6%", "*bold*", "_a_ *b*", "[a](https://x\\)y)", "||s||", "`a\\`b`", "\\\\", "가 나"] {
            #expect(MarkdownV2Check.problems(good) == [], "\(good)")
        }
    }

    @Test("a day's Telegram message: the heading bold, each entry's rank, title, sign and figures, numbers escaped")
    func telegramDay() async throws {
        let content = try await Self.recorded()[2].1
        let text = try #require(Self.texts(content, .telegram).first)
        #expect(text.hasPrefix("*일별 박스오피스 · 2023\\-04\\-26 \\(Wed\\)*\n_fixture, recorded 2026\\-11\\-20T00:00:00Z_"))
        #expect(text.contains("1\\. *드림* · 신작\nAudience 93,416 · Total 101,276 · Share 31\\.6%"))
        #expect(text.contains("2\\. *슈퍼 마리오 브라더스* · ▲12"))
        #expect(text.contains("10\\. *2001 스페이스 오디세이* · 신작"))
        let html = try #require(Self.texts(content, .telegramHTML).first)
        #expect(html.hasPrefix("<b>일별 박스오피스 · 2023-04-26 (Wed)</b>\n<i>fixture, recorded"))
    }

    /// Titles made of MarkdownV2's reserved characters, backslashes, HTML's and Slack's special characters,
    /// Hangul and spaces, some very long.
    static func awkwardTitles(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("_*[]()~`>#+-=|{}.!\\<>&\" 가나다 abc:@")
        return (0..<count).map { index in
            let length =
                index % 10 == 0
                ? Int.random(in: 1000...6000, using: &generator)
                : Int.random(in: 1...40, using: &generator)
            return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
        }
    }

    /// The recorded 2023-04-26 with its titles replaced by `titles` (up to ten), its label made awkward too.
    static func office(titled titles: [String]) async throws -> BoxOffice {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let service = worker.runtime.service
        var office = try await service.boxOffice(
            try service.plan(BoxOfficeRequest(span: .daily(CalendarDate("2023-04-26")), limit: 10))
        ).value
        office.label = "일별 박스오피스 (a.b_c)"
        office.entries = Array(office.entries.prefix(titles.count))
        for index in office.entries.indices { office.entries[index].title = titles[index] }
        return office
    }

    @Test("titles of reserved characters: every message passes the check and stays within 4,096", arguments: 0..<20)
    func telegramAwkward(_ round: Int) async throws {
        let office = try await Self.office(titled: Self.awkwardTitles(count: 10))
        for text in Self.texts(AnswerView(office), .telegram) {
            #expect(MarkdownV2Check.problems(text) == [], "\(text.prefix(300))")
            #expect(text.utf16.count <= 4096)
        }
        for text in Self.texts(AnswerView(office), .telegramHTML) {
            #expect(text.utf16.count <= 4096)
            #expect(TelegramHTMLCheck.problems(text) == [], "\(text.prefix(300))")
        }
    }

    @Test("ten long titles split into several Telegram messages, each within the limit, none lost")
    func telegramSplits() async throws {
        let titles = (1...10).map { String(repeating: "가.", count: 400) + "\($0)" }
        let messages = Self.texts(AnswerView(try await Self.office(titled: titles)), .telegram)
        #expect(messages.count > 1)
        for text in messages { #expect(text.utf16.count <= 4096) }
        for rank in 1...10 {
            #expect(messages.contains { $0.contains("\n\(rank)\\. *") || $0.hasPrefix("\(rank)\\. *") })
        }
    }

    @Test("Slack: within Block Kit's limits for every recorded content and awkward titles")
    func slackLimits() async throws {
        var contents = try await Self.recorded().map(\.1)
        contents.append(AnswerView(try await Self.office(titled: Self.awkwardTitles(count: 10))))
        for content in contents {
            for message in ChatFormat.slack.messages(content) {
                guard case .body(let body) = message else { Issue.record("not a body"); continue }
                let blocks = try #require(body["blocks"]?.arrayValue)
                #expect(!blocks.isEmpty && blocks.count <= 50)
                #expect((body["text"]?.stringValue?.count ?? 0) <= 40000)
                for block in blocks {
                    let object = try #require(block.objectValue)
                    if object["type"] == "header" {
                        #expect((object["text"]?.objectValue?["text"]?.stringValue?.count ?? 0) <= 150)
                    }
                    if let text = object["text"]?.objectValue?["text"]?.stringValue { #expect(text.count <= 3000) }
                    let fields = object["fields"]?.arrayValue ?? []
                    #expect(fields.count <= 10)
                    for field in fields { #expect((field.objectValue?["text"]?.stringValue?.count ?? 0) <= 2000) }
                    if let text = object["text"]?.objectValue?["text"]?.stringValue, object["type"] == "section" {
                        #expect(!text.contains("<") && !text.contains(">"), "mrkdwn escapes < and >: \(text)")
                    }
                }
            }
        }
    }

    @Test("Discord: within the embed limits, no mentions, the apps' colours")
    func discordLimits() async throws {
        var contents = try await Self.recorded().map(\.1)
        contents.append(AnswerView(try await Self.office(titled: Self.awkwardTitles(count: 10))))
        for content in contents {
            for message in ChatFormat.discord.messages(content) {
                guard case .body(let body) = message else { Issue.record("not a body"); continue }
                #expect(body["allowed_mentions"] == ["parse": []])
                #expect((body["content"]?.stringValue?.count ?? 0) <= 2000)
                let embeds = body["embeds"]?.arrayValue ?? []
                #expect(embeds.count <= 10)
                var total = 0
                for embed in embeds.compactMap(\.objectValue) {
                    let title = embed["title"]?.stringValue?.count ?? 0
                    let description = embed["description"]?.stringValue?.count ?? 0
                    let footer = embed["footer"]?.objectValue?["text"]?.stringValue?.count ?? 0
                    #expect(title <= 256 && description <= 4096 && footer <= 2048)
                    let fields = embed["fields"]?.arrayValue ?? []
                    #expect(fields.count <= 25)
                    var fieldsTotal = 0
                    for field in fields.compactMap(\.objectValue) {
                        let name = field["name"]?.stringValue?.count ?? 0
                        let value = field["value"]?.stringValue?.count ?? 0
                        #expect(name <= 256 && value <= 1024)
                        fieldsTotal += name + value
                    }
                    total += title + description + footer + fieldsTotal
                }
                #expect(total <= 6000)
            }
        }
        let day = try await Self.recorded()[2].1
        let body = try #require(ChatFormat.discord.messages(day).first?.body)
        let colours = body["embeds"]?.arrayValue?.compactMap { $0.objectValue?["color"]?.integerValue }
        // 신작 pink, ▲ red, ▼ blue, as the CLI tints them.
        #expect(colours?.prefix(3) == [0xE6_4980, 0xE0_3131, 0x1C_7ED6])
    }

    @Test("Markdown: a table for a day, its pipes escaped; a heading and a list for a movie")
    func markdown() async throws {
        let recorded = try await Self.recorded()
        let day = try #require(ChatFormat.markdown.messages(recorded[2].1).first?.text)
        #expect(
            day.hasPrefix("### 일별 박스오피스 · 2023-04-26 (Wed)\n\n| Rank | Change | Title | Audience | Total | Share |"))
        #expect(day.contains("| 1 | 신작 | 드림 | 93,416 | 101,276 | 31.6% |"))
        let pipedOffice = try await Self.office(titled: ["a|b*c"])
        let piped = try #require(ChatFormat.markdown.messages(AnswerView(pipedOffice)).first?.text)
        #expect(piped.contains("| a\\|b\\*c |"))
        let movie = try #require(recorded.first { $0.0 == "20198482" }?.1)
        let text = try #require(ChatFormat.markdown.messages(movie).first?.text)
        #expect(text.hasPrefix("### 드림\n*Dream*\n\n- **Director**: 이병헌\n"))
    }
}

/// A MarkdownV2 check written from Telegram's published rules (core.telegram.org/bots/api#markdownv2-style): outside
/// entities every one of `_ * [ ] ( ) ~ ` > # + - = | { } . !` and the backslash must be escaped with a backslash;
/// a backslash escapes any character with code 1 to 126; inside `code` and ```pre``` only ` and \ may appear, and
/// escaped; inside a link's URL, `)` and `\` must be escaped; `*bold*`, `_italic_`, `__underline__`, `~strike~`,
/// `||spoiler||` and `[text](url)` must be balanced and closed.
enum MarkdownV2Check {
    static func problems(_ text: String) -> [String] {
        let characters = Array(text)
        var problems: [String] = []
        var open: [String] = []
        var index = 0
        func toggle(_ marker: String) {
            if open.last == marker {
                open.removeLast()
            } else if open.contains(marker) {
                problems.append("\(marker) closed across another entity at \(index)")
            } else {
                open.append(marker)
            }
        }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "\\":
                guard let next, let code = next.unicodeScalars.first?.value, next.unicodeScalars.count == 1,
                    (1...126).contains(code)
                else {
                    problems.append("a backslash escaping nothing escapable at \(index)")
                    index += 1
                    continue
                }
                index += 2
                continue
            case "*", "~":
                toggle(String(character))
            case "_":
                if next == "_" {
                    toggle("__")
                    index += 1
                } else {
                    toggle("_")
                }
            case "|":
                if next == "|" {
                    toggle("||")
                    index += 1
                } else {
                    problems.append("unescaped | at \(index)")
                }
            case "`":
                // Code: up to the next unescaped backtick, only \` and \\ escapes inside.
                var end = index + 1
                while end < characters.count, characters[end] != "`" {
                    if characters[end] == "\\" {
                        if end + 1 < characters.count, "`\\".contains(characters[end + 1]) {
                            end += 2
                            continue
                        }
                        problems.append("a backslash in code escaping neither ` nor \\ at \(end)")
                    }
                    end += 1
                }
                if end >= characters.count { problems.append("code never closed") }
                index = end + 1
                continue
            case "[":
                open.append("[")
            case "]":
                guard open.last == "[" else {
                    problems.append("unescaped ] at \(index)")
                    break
                }
                open.removeLast()
                guard next == "(" else {
                    problems.append("a link's text without its (url) at \(index)")
                    break
                }
                var end = index + 2
                while end < characters.count, characters[end] != ")" {
                    if characters[end] == "\\" {
                        if end + 1 < characters.count, ")\\".contains(characters[end + 1]) {
                            end += 2
                            continue
                        }
                        problems.append("a backslash in a URL escaping neither ) nor \\ at \(end)")
                    }
                    end += 1
                }
                if end >= characters.count { problems.append("a link's URL never closed") }
                index = end + 1
                continue
            case "(", ")", ">", "#", "+", "-", "=", "{", "}", ".", "!":
                problems.append("unescaped \(character) at \(index)")
            default:
                break
            }
            index += 1
        }
        if !open.isEmpty { problems.append("entities left open: \(open)") }
        return problems
    }
}

/// Telegram's HTML style, as far as these messages use it: only `<b>`, `<i>` and `<a href="…">` tags, balanced; every
/// other `<`, `>` and `&` written as an entity (`&lt;`, `&gt;`, `&amp;`, `&quot;`).
enum TelegramHTMLCheck {
    static func problems(_ text: String) -> [String] {
        var problems: [String] = []
        var open: [String] = []
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == ">" || $0 == "&" }) {
            let tail = rest[index...]
            if tail.hasPrefix("&") {
                if !["&lt;", "&gt;", "&amp;", "&quot;"].contains(where: { tail.hasPrefix($0) }) {
                    problems.append("a bare & at \(text.distance(from: text.startIndex, to: index))")
                }
                rest = tail.dropFirst()
                continue
            }
            guard tail.hasPrefix("<"), let close = tail.firstIndex(of: ">") else {
                problems.append("a bare \(tail.first!) at \(text.distance(from: text.startIndex, to: index))")
                rest = tail.dropFirst()
                continue
            }
            let tag = String(tail[tail.index(after: tail.startIndex)..<close])
            if tag == "b" || tag == "i"
                || (tag.hasPrefix("a href=\"") && tag.hasSuffix("\"")
                    && !tag.dropFirst(8).dropLast().contains("\""))
            {
                open.append(tag == "b" || tag == "i" ? tag : "a")
            } else if tag.hasPrefix("/"), open.last == String(tag.dropFirst()) {
                open.removeLast()
            } else {
                problems.append("a tag Telegram does not take, or unbalanced: <\(tag.prefix(40))>")
            }
            rest = tail[tail.index(after: close)...]
        }
        if !open.isEmpty { problems.append("tags left open: \(open)") }
        return problems
    }
}

extension ChatMessage {
    /// The text of a Markdown message; nil for a request body (a `#require` then fails the test).
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The request body of a Slack, Discord or Telegram message; nil for a text.
    var body: JSONObject? {
        if case .body(let body) = self { return body }
        return nil
    }
}
