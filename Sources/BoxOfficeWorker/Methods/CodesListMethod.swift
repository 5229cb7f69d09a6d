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

    struct Input: MethodInput, Hashable {
        var kind: CodeKind
        var refresh = false

        var params: JSONObject {
            var params = Params.Writer()
            params.set("kind", kind.rawValue)
            params.set("refresh", flag: refresh)
            return params.object
        }
    }

    func start(_ input: Input, in context: RequestContext) -> MethodReply<Kept<CodeList>> {
        reply(.codes(input.kind, refresh: input.refresh))
    }

    func result(_ list: Kept<CodeList>) -> RPCResult {
        result(body: list.body, source: list.value.source) { ModelEncoding.codes(list.value) }
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension CodesListMethod.Input {
    init(params object: JSONObject) throws(RPCError) {
        let params = Params(object: object)
        guard let kind = params.string("kind").flatMap(CodeKind.init(rawValue:)) else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["kind"]), "not a code list kind")
        }
        self.init(kind: kind, refresh: params.bool("refresh") == true)
    }
}
