import BoxOfficeCore
import JSONCore
import JSONRPC

/// `company.search`: KOBIS companies by name, CEO and/or part, a page at a time.
struct CompanySearchMethod: DomainMethod, TypedMethod {
    static let methodName = "company.search"
    let summary =
        "Searches KOBIS companies (producers, distributors, importers) by name, CEO and/or part code, a page at a time."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    /// Any of a name, a CEO and a part code (with none, KOBIS's newest registered companies), a page.
    struct Input: MethodInput, Hashable {
        var name: String?
        var ceo: String?
        /// A `companyPart` code (`codes.list`).
        var part: String?
        var page = 1
        var limit = 10
        var refresh = false

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("name", name)
            params.set("ceo", ceo)
            params.set("part", part)
            params.set("page", page, default: 1)
            params.set("limit", limit, default: 10)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) -> Reply<CompanySearch> {
        .work { [service] in
            try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.companies(
                    name: input.name, ceo: input.ceo, part: input.part, page: input.page, limit: input.limit,
                    refresh: input.refresh)
            }
        }
    }

    func result(_ search: CompanySearch) -> RPCResult {
        .value(ModelEncoding.companySearch(search))
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension CompanySearchMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(
            name: params.string("name"), ceo: params.string("ceo"), part: params.string("part"),
            page: params.int("page") ?? 1, limit: params.int("limit") ?? 10, refresh: params.bool("refresh") == true)
    }
}
