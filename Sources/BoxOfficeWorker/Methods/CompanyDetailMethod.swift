import BoxOfficeCore
import JSONCore
import JSONRPC

/// `company.detail`: a company's record by KOBIS company code.
struct CompanyDetailMethod: DomainMethod, TypedMethod {
    static let methodName = "company.detail"
    let summary =
        "A company's KOBIS record by company code: names, CEO, parts and filmography with its parts in each film."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    struct Input: MethodInput, Hashable {
        var companyCode: String
        var refresh = false

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("companyCode", companyCode)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Kept<Company>> {
        try reply(.company(input.companyCode, refresh: input.refresh))
    }

    func result(_ company: Kept<Company>) -> RPCResult {
        result(body: company.body, source: company.value.source) { ModelEncoding.company(company.value) }
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension CompanyDetailMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(companyCode: params.string("companyCode") ?? "", refresh: params.bool("refresh") == true)
    }
}
