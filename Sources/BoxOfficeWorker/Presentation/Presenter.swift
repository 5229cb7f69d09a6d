import BoxOfficeCore
package import BoxOfficeMethods
package import BoxOfficeViews
package import FoundationEssentials
import Glibc
import JSONCore
package import JSONRPC

/// The one way an answer is presented beyond its JSON: every face asks with a ``Presentation`` and gets what it made,
/// through the same renderers and the same failure. JSON-RPC and MCP reach it through ``PresentingMethod`` (the
/// `chat` and `card` params), the CLI through `--format`; the faces then differ only in how they carry the bytes
/// (a result's member, an MCP image block, stdout or `--out`), so they agree by construction.
package struct Presenter: Sendable {
    /// What a presentation made.
    package enum Presented: Sendable {
        /// Messages to post in a chat format: Markdown's one text, or the request bodies of the others.
        case messages(ChatFormat, [ChatMessage])
        /// A card's PNG bytes.
        case card([UInt8])
        /// A self-contained HTML page, its posters embedded.
        case page(String)
    }

    /// Downloads the posters a card or a page shows.
    let runtime: WorkerRuntime

    package init(runtime: WorkerRuntime) {
        self.runtime = runtime
    }

    /// `view` as `presentation`; a poster that cannot be had is left out and said through `warn`.
    /// - Throws: `not_configured` (``BoxOfficeError``) when a card cannot be drawn here: the drawing libraries or a
    ///   font with Hangul are missing.
    package func present(_ view: AnswerView, as presentation: Presentation, warn: (String) -> Void)
        async throws(RPCError) -> Presented
    {
        switch presentation {
        case .chat(let format):
            return Self.messages(view, format)
        case .card(let layout):
            return .card(try await card(view, layout: layout, warn: warn))
        case .page(let layout):
            let posters = await runtime.downloadedPosters(view.posterURLs, warn: warn)
            let sources = posters.compactMapValues { PosterEmbedding.dataURI($0) }
            return .page(HTMLPage.page(view, layout: layout, posters: sources))
        }
    }

    /// `view` drawn as a PNG card, its downloadable posters in it.
    /// - Throws: `not_configured` when the drawing libraries or a font with Hangul are missing.
    package func card(_ view: AnswerView, layout: ListLayout, warn: (String) -> Void) async throws(RPCError) -> [UInt8]
    {
        let posters = await runtime.downloadedPosters(view.posterURLs, warn: warn)
        // Drawn on Swift's global pool, never on the event loop a live job runs on (EventLoopExecutor): a card is tens
        // of milliseconds of CPU, and every exchange on the loop would wait for it.
        let drawn = await withTaskExecutorPreference(globalConcurrentExecutor) {
            () async -> Result<[UInt8], RPCError> in
            do throws(CardError) {
                return .success(try CardRenderer.load().render(view, layout: layout, posters: posters, warn: warn))
            } catch {
                return .failure(BoxOfficeError(.notConfigured, error.message).rpcError)
            }
        }
        return try drawn.get()
    }

    /// The chat messages at once: they need no download, so a cached answer with `chat` is still answered on the
    /// spot.
    package static func messages(_ view: AnswerView, _ format: ChatFormat) -> Presented {
        .messages(format, format.messages(view))
    }

    /// A page of a static site in `folder`: its posters copied beside it (a site is browsed from its files, and
    /// one copy serves every page that shows it), and a link back to the site's `index`.
    package func sitePage(
        _ view: AnswerView, layout: ListLayout, folder: URL, index: String, warn: (String) -> Void
    ) async -> String {
        var sources: HTMLPage.PosterSources = [:]
        for (url, file) in await runtime.downloadedPosters(view.posterURLs, warn: warn) {
            sources[url] = PosterEmbedding.copy(file, into: folder)
        }
        return HTMLPage.page(view, layout: layout, posters: sources, index: index)
    }
}
