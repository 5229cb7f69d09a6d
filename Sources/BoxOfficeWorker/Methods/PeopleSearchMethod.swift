import BoxOfficeCore
import JSONCore
import JSONRPC

/// `people.search`: KOBIS people by name and/or a title they worked on, a page at a time.
struct PeopleSearchMethod: DomainMethod, TypedMethod {
    static let methodName = "people.search"
    let summary =
        "Searches KOBIS people (directors, actors, crew) by name and/or a title in their filmography, a page at a time."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    /// A name and/or a title (with neither, KOBIS's newest registered people), a page.
    struct Input: MethodInput, Hashable {
        var name: String?
        var filmography: String?
        var page = 1
        var limit = 10
        var refresh = false

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("name", name)
            params.set("filmography", filmography)
            params.set("page", page, default: 1)
            params.set("limit", limit, default: 10)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) -> Reply<PeopleSearch> {
        .work { [service] in
            try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.people(
                    name: input.name, filmography: input.filmography, page: input.page, limit: input.limit,
                    refresh: input.refresh)
            }
        }
    }

    func result(_ search: PeopleSearch) -> RPCResult {
        .value(ModelEncoding.peopleSearch(search))
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension PeopleSearchMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(
            name: params.string("name"), filmography: params.string("filmography"), page: params.int("page") ?? 1,
            limit: params.int("limit") ?? 10, refresh: params.bool("refresh") == true)
    }
}
