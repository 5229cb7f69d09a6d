package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `codes.list`: a KOBIS code list (regions, nations, film types, genres, statuses, grades, company parts).
package struct CodesListMethod: DomainMethod, TypedMethod {
    package static let methodName = "codes.list"
    package let summary =
        "A KOBIS code list by kind: region (the area a box office takes), nation, type, genre, status, grade, companyPart."
    package let schemas: MethodSchemas
    package let runtime: WorkerRuntime

    package init(schemas: MethodSchemas, runtime: WorkerRuntime) {
        (self.schemas, self.runtime) = (schemas, runtime)
    }

    /// The kind as given (the CLI's word as typed): the schema's enum refuses an unknown one on every face.
    package struct Input: MethodInput, Hashable {
        package var kind: String
        package var refresh = false

        package init(kind: String, refresh: Bool = false) {
            self.kind = kind
            self.refresh = refresh
        }

        package static let fields: [InputField<Self>] = [.text("kind", \.kind), .flag("refresh", \.refresh)]
        package static let blank = Self(kind: "")
    }

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<BodyBacked<CodeList>> {
        guard let kind = CodeKind(rawValue: input.kind) else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["kind"]), "\"\(input.kind)\" is not a code list kind")
        }
        return try reply(.codes(kind, refresh: input.refresh))
    }

    package func result(_ list: BodyBacked<CodeList>) -> RPCResult {
        result(body: list.body, source: list.value.source) { ModelEncoding.codes(list.value) }
    }
}
