package import BoxOfficeMethods
package import JSONRPC

/// Every method this worker answers, built once from the runtime: the JSON-RPC registry (and through it the MCP
/// tools, resources and prompt) serves them, the six whose answers can be presented through the ``Presenter``
/// (``PresentingMethod``); the CLI calls the same instances in process and presents through the same presenter.
package struct WorkerMethods: Sendable {
    let ping: PingMethod
    let status: WorkerStatusMethod
    let discover: DiscoverMethod
    let daily: BoxOfficeMethod
    let weekly: BoxOfficeMethod
    let detail: MovieDetailMethod
    let poster: MoviePosterMethod
    let search: MovieSearchMethod
    let peopleSearch: PeopleSearchMethod
    let person: PeopleDetailMethod
    let companySearch: CompanySearchMethod
    let company: CompanyDetailMethod
    let codes: CodesListMethod
    let run: MovieRunMethod
    let compare: MovieCompareMethod
    /// `diagnostics.sleep` and `diagnostics.fail`, with `--diagnostics` only.
    let diagnostics: [any RPCMethod]
    /// Presents an answer beyond its JSON, for every face.
    let presenter: Presenter
    /// The registry of all of them, in `rpc.discover`'s order.
    package let registry: MethodRegistry

    /// - Throws: ``SchemaCatalog/LoadError`` when a method's schema is missing (a build defect).
    package init(_ configuration: WorkerConfiguration, runtime: WorkerRuntime, startedAt: WorkerClock) throws {
        ping = try PingMethod()
        status = try WorkerStatusMethod(configuration: configuration, clock: startedAt, runtime: runtime)
        discover = try DiscoverMethod()
        daily = try BoxOfficeMethod(.daily, runtime: runtime)
        weekly = try BoxOfficeMethod(.weekly, runtime: runtime)
        detail = try MovieDetailMethod.make(runtime)
        poster = try MoviePosterMethod.make(runtime)
        search = try MovieSearchMethod.make(runtime)
        peopleSearch = try PeopleSearchMethod.make(runtime)
        person = try PeopleDetailMethod.make(runtime)
        companySearch = try CompanySearchMethod.make(runtime)
        company = try CompanyDetailMethod.make(runtime)
        codes = try CodesListMethod.make(runtime)
        run = try MovieRunMethod.make(runtime)
        compare = try MovieCompareMethod.make(runtime)
        presenter = Presenter(runtime: runtime)
        diagnostics = configuration.diagnostics ? [try DiagnosticsSleepMethod(), try DiagnosticsFailMethod()] : []
        let served: [any RPCMethod] = [
            ping, status, discover, PresentingMethod(daily, presenter: presenter),
            PresentingMethod(weekly, presenter: presenter), PresentingMethod(detail, presenter: presenter), poster,
            PresentingMethod(search, presenter: presenter), peopleSearch, person, companySearch, company, codes,
            PresentingMethod(run, presenter: presenter), PresentingMethod(compare, presenter: presenter),
        ]
        registry = MethodRegistry(served + diagnostics)
    }
}
