/// How one worker method is offered as an MCP tool: its name (underscores: several model APIs reject dots), a
/// title, a description a model can act on, and whether it reaches the outside world.
struct ToolSpec: Sendable {
    let tool: String
    let method: String
    let title: String
    let description: String
    let openWorld: Bool

    /// The tools, in the order `tools/list` gives them.
    static let all: [ToolSpec] = [
        ToolSpec(
            tool: "boxoffice_daily", method: "boxoffice.daily", title: "Daily box office (Korea)",
            description: """
                A day's Korean box office from KOBIS (영화진흥위원회): the top 10 (or `limit`) with rank, rank change \
                (display.rankChange: 신작 for a new entry, ▲n up, ▼n down, - same), the day's and the running audience \
                and sales, sales share, screens and shows, and display strings with thousands separators. `date` is \
                YYYY-MM-DD, from 2003-11-11 to yesterday in Asia/Seoul (today's figures do not exist yet); without it, \
                yesterday (offline: the latest recorded day). Filters: nation korean/foreign, multiMovie (diversity \
                films), area (a KOBIS region code). `include: ["detail","poster"]` also fetches every entry's movie \
                details and poster concurrently, in one call. Answers come from a shared cache when fresh.
                """, openWorld: true),
        ToolSpec(
            tool: "boxoffice_weekly", method: "boxoffice.weekly", title: "Weekly box office (Korea)",
            description: """
                A week's (Mon–Sun, period "week"), weekend's (Fri–Sun, "weekend", the default) or weekdays' \
                (Mon–Thu, "weekdays") Korean box office from KOBIS: the top 10 with rank changes, audience and sales \
                for the period and in total. `date` is any day of the period, YYYY-MM-DD, and the period must have \
                ended; without it, the latest finished period. `include: ["detail","poster"]` fetches every entry's \
                details and poster concurrently.
                """, openWorld: true),
        ToolSpec(
            tool: "movie_detail", method: "movie.detail", title: "Movie details",
            description: """
                A movie's details from KOBIS by its movie code (movieCode, as the box office entries give it): Korean, \
                English and original titles, production year, opening date, runtime, watch grade, nations, genres, \
                directors, actors with their roles, companies.
                """, openWorld: true),
        ToolSpec(
            tool: "movie_poster", method: "movie.poster", title: "Movie poster",
            description: """
                A movie's poster: the first Kakao image search result for "<title> 영화 포스터", by `title` or by \
                `movieCode` (its Korean title is looked up). `found: false` when there is none. With `download: true` \
                the image is also saved in the worker's cache and returned as an image (or a link to the file when it \
                is over 1 MB).
                """, openWorld: true),
        ToolSpec(
            tool: "movie_search", method: "movie.search", title: "Search movies",
            description: """
                Searches KOBIS movies by `title` and/or `director` (optionally a production `year`), a page at a \
                time: movie codes, titles, years, opening dates, genres, directors. Use the codes with movie_detail.
                """, openWorld: true),
        ToolSpec(
            tool: "worker_status", method: "worker.status", title: "Worker status",
            description: """
                The worker itself: version, mode (live or offline), uptime, request counters, upstream calls, the \
                KOBIS daily quota (limit, used, remaining, when it resets) and the cache. Use it to see whether live \
                calls are possible and how many remain today.
                """, openWorld: false),
    ]
}
