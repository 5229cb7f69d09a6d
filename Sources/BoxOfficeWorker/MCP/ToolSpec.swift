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
                A day's Korean box office from KOBIS (영화진흥위원회), 2003-11-11 to yesterday (Asia/Seoul): the top 10 \
                with rank, rank change (display.rankChange: 신작 new, ▲n up, ▼n down, - same), audience and sales for \
                the day and in total, screens, shows, display strings (1,234).
                """, openWorld: true),
        ToolSpec(
            tool: "boxoffice_weekly", method: "boxoffice.weekly", title: "Weekly box office (Korea)",
            description: """
                A week's, weekend's or weekdays' Korean box office from KOBIS, in the shape of boxoffice_daily's.
                """, openWorld: true),
        ToolSpec(
            tool: "movie_detail", method: "movie.detail", title: "Movie details",
            description: """
                A movie's details from KOBIS by `movieCode` (as box office entries give it): titles, year, opening \
                date, runtime, grade, nations, genres, directors, actors and roles, companies.
                """, openWorld: true),
        ToolSpec(
            tool: "movie_poster", method: "movie.poster", title: "Movie poster",
            description: """
                A movie's poster from Kakao image search, by `title` or `movieCode`; `found: false` when there is \
                none. `download: true` also saves it and returns the image (a file link over 1 MB).
                """, openWorld: true),
        ToolSpec(
            tool: "movie_search", method: "movie.search", title: "Search movies",
            description: """
                Searches KOBIS movies by `title` and/or `director` (and production `year`), a page at a time: codes \
                for movie_detail, titles, years, opening dates, genres, directors.
                """, openWorld: true),
        ToolSpec(
            tool: "people_search", method: "people.search", title: "Search people",
            description: """
                Searches KOBIS people (directors, actors, crew) by `name` and/or a title in their `filmography`, a \
                page at a time: codes for people_detail, names, representative role, titles.
                """, openWorld: true),
        ToolSpec(
            tool: "people_detail", method: "people.detail", title: "Person details",
            description: """
                A person's KOBIS record by `peopleCode` (from people_search): names, sex, role, homepages and \
                filmography (movie code, title, their part). `include: ["movies"]` adds each film's details (the \
                first 40 films, one KOBIS call each), as movie_detail gives them: "what else did this director make?".
                """, openWorld: true),
        ToolSpec(
            tool: "company_search", method: "company.search", title: "Search companies",
            description: """
                Searches KOBIS film companies (producers, distributors, importers) by `name`, `ceo` and/or `part` (a \
                companyPart code from codes_list), a page at a time: codes for company_detail, parts, titles.
                """, openWorld: true),
        ToolSpec(
            tool: "company_detail", method: "company.detail", title: "Company details",
            description: """
                A company's KOBIS record by `companyCode` (from company_search or a movie's companies): names, CEO, \
                parts and filmography with its parts in each film: "which films did this distributor release?".
                """, openWorld: true),
        ToolSpec(
            tool: "codes_list", method: "codes.list", title: "KOBIS code lists",
            description: """
                A KOBIS code list by `kind`: region (the codes and names boxoffice_daily's `area` takes), nation, \
                type, genre, status, grade, companyPart (company_search's `part`).
                """, openWorld: true),
        ToolSpec(
            tool: "movie_run", method: "movie.run", title: "A film's run",
            description: """
                A film's run from KOBIS's daily top 10s: each day from its previews on, the day of each 100만 \
                step ("천만 on day N"), the second-week drop, 뒷심; days in no list are `missing`.
                """, openWorld: true),
        ToolSpec(
            tool: "movie_compare", method: "movie.compare", title: "Compare films' runs",
            description: """
                2 to 8 films' runs aligned by day since opening: totals by day N, the day each reached each step, \
                summaries side by side.
                """, openWorld: true),
        ToolSpec(
            tool: "worker_status", method: "worker.status", title: "Worker status",
            description: """
                The worker: version, mode (live or offline), uptime, counters, the KOBIS daily quota (used, \
                remaining, reset time) and the cache.
                """, openWorld: false),
    ]
}
