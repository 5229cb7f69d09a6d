import BoxOfficeCore
import JSONCore
import JSONRPC

/// `codes.list`: a KOBIS code list (regions, nations, film types, genres, statuses, grades, company parts).
struct CodesListMethod: DomainMethod, TypedMethod {
    static let methodName = "codes.list"
    let summary =
        "A KOBIS code list by kind: region (the area a box office takes), nation, type, genre, status, grade, companyPart."
    let schemas: MethodSchemas
    let runtime: WorkerRuntime

    /// The kind as given (the CLI's word as typed): the schema's enum refuses an unknown one on every face.
    struct Input: MethodInput, Hashable {
        var kind: String
        var refresh = false

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("kind", kind)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<Kept<CodeList>> {
        guard let kind = CodeKind(rawValue: input.kind) else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["kind"]), "\"\(input.kind)\" is not a code list kind")
        }
        return try reply(.codes(kind, refresh: input.refresh))
    }

    func result(_ list: Kept<CodeList>) -> RPCResult {
        result(body: list.body, source: list.value.source) { ModelEncoding.codes(list.value) }
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension CodesListMethod.Input {
    init(params object: JSONObject) {
        let params = ParamsReader(object: object)
        self.init(kind: params.string("kind") ?? "", refresh: params.bool("refresh") == true)
    }
}
