package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `people.search`: KOBIS people by name and/or a title they worked on, a page at a time.
package struct PeopleSearchMethod: DomainMethod, TypedMethod {
    package static let methodName = "people.search"
    package let summary =
        "Searches KOBIS people (directors, actors, crew) by name and/or a title in their filmography, a page at a time."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// A name and/or a title (with neither, KOBIS's newest registered people), a page.
    package struct Input: MethodInput, Hashable {
        package var name: String?
        package var filmography: String?
        package var page = 1
        package var limit = 10
        package var refresh = false

        package init(
            name: String? = nil, filmography: String? = nil, page: Int = 1, limit: Int = 10, refresh: Bool = false
        ) {
            self.name = name
            self.filmography = filmography
            self.page = page
            self.limit = limit
            self.refresh = refresh
        }

        package static let fields: [InputField<Self>] = [
            .text("name", \.name), .text("filmography", \.filmography), .int("page", \.page, default: 1),
            .int("limit", \.limit, default: 10), .flag("refresh", \.refresh),
        ]
        package static let blank = Self()
    }

    package func start(_ input: Input, in context: RequestContext) -> Reply<PeopleSearch> {
        .work { [service] in
            try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.people(
                    name: input.name, filmography: input.filmography, page: input.page, limit: input.limit,
                    refresh: input.refresh)
            }
        }
    }

    package func result(_ search: PeopleSearch) -> RPCResult {
        .value(ModelEncoding.peopleSearch(search))
    }
}
