package import BoxOfficeMethods
package import JSONRPC
package import MCP

/// The worker as an MCP server: its identity and instructions, its methods as tools, box offices and movies as
/// resources, and the briefing prompt.
package enum BoxOfficeMCP {
    static let instructions = """
        Korean box office data from KOBIS (영화진흥위원회) with posters from Kakao image search. Start with \
        boxoffice_daily (a day, default yesterday in Seoul) or boxoffice_weekly (a week, weekend or weekdays); \
        each entry has a movieCode for movie_detail and a title for movie_poster, or pass include: \
        ["detail","poster"] to get both for every entry in one call. Dates are YYYY-MM-DD in Asia/Seoul and must \
        be in the past; area takes a region's code or name (codes_list region). People and companies: \
        people_search and company_search give codes for people_detail (a filmography; include: ["movies"] adds \
        each film's details) and company_detail (what a distributor released). Failures come back as results with isError and a reason (offline_unavailable, not_found, \
        quota_exhausted, upstream_unavailable, …): read it and adjust the call. worker_status shows the mode and \
        the KOBIS calls left today.
        """

    package static func catalog(_ methods: MethodRegistry, runtime: WorkerRuntime) -> MCPCatalog {
        MCPCatalog(
            info: MCPServerInfo(
                name: WorkerIdentity.name, title: "Korean box office (KOBIS)", version: WorkerIdentity.version,
                instructions: instructions),
            tools: BoxOfficeTools.make(methods),
            resourceTemplates: BoxOfficeResources.templates,
            // The coverage (and so the recordings' index) is read when a client lists resources, not at start.
            resources: { BoxOfficeResources.list(runtime.coverage) },
            read: { uri, context in try BoxOfficeResources.read(uri, methods, context) },
            prompts: [BriefingPrompt.make(methods)])
    }
}
