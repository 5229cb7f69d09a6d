package import BoxOfficeViews

/// `--format`: the screens for people (`text`), or the data for programs.
package enum CLIFormat: String, Sendable, CaseIterable {
    /// The apps' screens.
    case text
    /// The method's result exactly as the worker answers it (the same schema).
    case json
    /// One JSON object per line: a box office's entries, a search's movies.
    case ndjson
    /// A header row, then one row per entry (UTF-8; with a BOM only when `--excel` asks for one).
    case csv
    /// GitHub-flavoured Markdown, ready to post (``ChatFormat``).
    case markdown
    /// Slack Block Kit bodies, one JSON object a line, ready to post.
    case slack
    /// Discord execute-webhook bodies, one JSON object a line, ready to post.
    case discord
    /// Telegram `sendMessage` bodies (MarkdownV2), one JSON object a line; add the `chat_id`.
    case telegram
    /// Telegram `sendMessage` bodies (HTML), one JSON object a line; add the `chat_id`.
    case telegramHTML = "telegram-html"
    /// One self-contained HTML page (``HTMLPage``); with a range and `--out DIR`, a static site.
    case html
    /// A PNG card of the list or grid screen (``CardRenderer``).
    case png

    /// The chat format this is, if it is one: daily, weekly, movie and search write them.
    package var chat: ChatFormat? { ChatFormat(rawValue: rawValue) }

    /// The presentation this format asks the presenter for, a list in `layout`; nil for the CLI's own formats
    /// (screens and rows).
    package func presentation(layout: ListLayout) -> Presentation? {
        if let chat { return .chat(chat) }
        switch self {
        case .png: return .card(layout)
        case .html: return .page(layout)
        default: return nil
        }
    }

    /// Whether this is output to post or publish (a chat format, a page, a card), which only daily, weekly, movie
    /// and search write.
    package var isPost: Bool { presentation(layout: .list) != nil }
}

/// How a command shows what it got: the format, the spreadsheet BOM, the file or folder to write.
package struct CLIDisplay: Sendable {
    package var format: CLIFormat
    /// With `--format csv`: start with a UTF-8 byte order mark.
    package var excel: Bool
    /// `--out`: the file a page or a card is written to (else stdout), or with a range the static site's folder.
    package var out: String?

    package init(format: CLIFormat, excel: Bool, out: String? = nil) {
        self.format = format
        self.excel = excel
        self.out = out
    }
}
