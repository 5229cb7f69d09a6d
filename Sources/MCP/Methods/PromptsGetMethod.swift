import JSONCore
import JSONRPC

/// `prompts/get`: one prompt's messages for its arguments (strings, as MCP has them).
struct PromptsGetMethod: MCPMethod {
    let name = "prompts/get"
    let catalog: MCPCatalog

    func answer(_ params: JSONObject, _ context: RequestContext, era: MCPEra) throws -> RPCReply {
        guard let promptName = params["name"]?.stringValue else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: ["name"]), "prompts/get needs the prompt's name")
        }
        guard let prompt = catalog.prompts.first(where: { $0.name == promptName }) else {
            throw RPCError(.invalidParams, "Unknown prompt: \(promptName)")
        }
        var arguments: [String: String] = [:]
        for member in params["arguments"]?.objectValue ?? [:] {
            guard let text = member.value.stringValue else {
                throw RPCError.invalidParams(
                    at: JSONPointer(tokens: ["arguments", member.key]), "prompt arguments are strings")
            }
            arguments[member.key] = text
        }
        for argument in prompt.arguments where argument.required && arguments[argument.name] == nil {
            throw RPCError.invalidParams(
                at: JSONPointer(tokens: ["arguments", argument.name]), "\(promptName) needs \(argument.name)")
        }
        return try prompt.get(arguments, context)
    }
}
