package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `company.search`: KOBIS companies by name, CEO and/or part, a page at a time.
package struct CompanySearchMethod: DomainMethod, TypedMethod {
    package static let methodName = "company.search"
    package let summary =
        "Searches KOBIS companies (producers, distributors, importers) by name, CEO and/or part code, a page at a time."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// Any of a name, a CEO and a part code (with none, KOBIS's newest registered companies), a page.
    package struct Input: MethodInput, Hashable {
        package var name: String?
        package var ceo: String?
        /// A `companyPart` code (`codes.list`).
        package var part: String?
        package var page = 1
        package var limit = 10
        package var refresh = false

        package init(
            name: String? = nil, ceo: String? = nil, part: String? = nil, page: Int = 1, limit: Int = 10,
            refresh: Bool = false
        ) {
            self.name = name
            self.ceo = ceo
            self.part = part
            self.page = page
            self.limit = limit
            self.refresh = refresh
        }

        package static let fields: [InputField<Self>] = [
            .text("name", \.name), .text("ceo", \.ceo), .text("part", \.part), .int("page", \.page, default: 1),
            .int("limit", \.limit, default: 10), .flag("refresh", \.refresh),
        ]
        package static let blank = Self()
    }

    package func start(_ input: Input, in context: RequestContext) -> Reply<CompanySearch> {
        .work { [service] in
            try await withWireErrors { () async throws(BoxOfficeError) in
                try await service.companies(
                    name: input.name, ceo: input.ceo, part: input.part, page: input.page, limit: input.limit,
                    refresh: input.refresh)
            }
        }
    }

    package func result(_ search: CompanySearch) -> RPCResult {
        .value(ModelEncoding.companySearch(search))
    }
}
