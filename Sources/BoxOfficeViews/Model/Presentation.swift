/// What a face asks for beyond the method's JSON, the same typed request everywhere: the JSON-RPC and MCP `chat` and
/// `card` params, and the CLI's `--format markdown|slack|discord|telegram|telegram-html|png|html`.
package enum Presentation: Sendable, Hashable {
    /// Messages ready to post in a chat format.
    case chat(ChatFormat)
    /// A PNG card of the screen, a list in this layout (a movie has one screen).
    case card(ListLayout)
    /// One self-contained HTML page, a list in this layout.
    case page(ListLayout)
}

/// How a list is laid out: one row per entry, or a grid of cards with posters (`--layout`, the `card` param).
package enum ListLayout: String, Sendable, CaseIterable {
    case list, grid
}
