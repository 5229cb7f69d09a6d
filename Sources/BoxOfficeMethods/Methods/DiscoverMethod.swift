package import JSONCore
package import JSONRPC
import JSONSchema

/// `rpc.discover`: an OpenRPC 1.3 document built from the registry, so it lists exactly what the worker answers.
package struct DiscoverMethod: TypedMethod {
    package static let methodName = "rpc.discover"
    package let summary = "An OpenRPC document listing every method with its params and result schemas."
    package let schemas: MethodSchemas

    package init() throws(SchemaCatalog.LoadError) {
        schemas = try MethodSchemas(for: Self.methodName)
    }

    package func start(_ input: NoInput, in context: RequestContext) -> Reply<JSONValue> {
        .ready(answer(context))
    }

    package func result(_ document: JSONValue) -> RPCResult {
        .value(document)
    }

    private func answer(_ context: RequestContext) -> JSONValue {
        [
            "openrpc": "1.3.2",
            "info": [
                "title": .string(WorkerIdentity.name),
                "version": .string(WorkerIdentity.version),
                "description":
                    "Korean box office data (KOBIS, Kakao posters) over newline-delimited JSON-RPC 2.0 on stdin/stdout.",
            ],
            "methods": .array(context.registry.methods.map(Self.describe)),
        ]
    }

    /// One OpenRPC method object: the params object's properties become by-name content descriptors.
    package static func describe(_ method: any RPCMethod) -> JSONValue {
        let document = method.paramsSchema.document
        let required = Set(document["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let properties = document["properties"]?.objectValue ?? JSONObject()
        let params = properties.map { member -> JSONValue in
            var descriptor: JSONObject = [
                "name": .string(member.key),
                "required": .bool(required.contains(member.key)),
                "schema": member.value,
            ]
            if let description = member.value["description"] { descriptor["description"] = description }
            return .object(descriptor)
        }
        return [
            "name": .string(method.name),
            "summary": .string(method.summary),
            "paramStructure": "by-name",
            "params": .array(params),
            "result": ["name": .string("\(method.name).result"), "schema": method.resultSchema],
            "x-params-schema": document,
        ]
    }
}
