package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `company.detail`: a company's record by KOBIS company code.
package struct CompanyDetailMethod: DomainMethod, TypedMethod {
    package static let methodName = "company.detail"
    package let summary =
        "A company's KOBIS record by company code: names, CEO, parts and filmography with its parts in each film."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    package struct Input: MethodInput, Hashable {
        package var companyCode: String
        package var refresh = false

        package init(companyCode: String, refresh: Bool = false) {
            self.companyCode = companyCode
            self.refresh = refresh
        }

        package static let fields: [InputField<Self>] = [
            .text("companyCode", \.companyCode), .flag("refresh", \.refresh),
        ]
        package static let blank = Self(companyCode: "")
    }

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<BodyBacked<Company>> {
        try reply(.company(input.companyCode, refresh: input.refresh))
    }

    package func result(_ company: BodyBacked<Company>) -> RPCResult {
        result(body: company.body, source: company.value.source) { ModelEncoding.company(company.value) }
    }
}
