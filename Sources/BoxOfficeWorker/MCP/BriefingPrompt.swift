import JSONCore
import JSONRPC
import JSONSchema
import MCP

/// `boxoffice_briefing`: asks for a short briefing of a day's top 10 with its rank changes, with the day's box
/// office embedded as a resource, so the model has the figures in front of it.
enum BriefingPrompt {
    static func make(_ registry: MethodRegistry) -> MCPPrompt {
        MCPPrompt(
            name: "boxoffice_briefing", title: "Box office briefing",
            description:
                "A short briefing of a day's Korean box office top 10 with rank changes (default: the latest day).",
            arguments: [
                .init(
                    name: "date", description: "The day, YYYY-MM-DD (default: yesterday in Asia/Seoul).",
                    required: false)
            ],
            get: { arguments, context in
                guard let method = registry.method(named: "boxoffice.daily") else {
                    throw RPCError(.internalError, "boxoffice.daily is not registered")
                }
                var params: JSONObject = [:]
                if let date = arguments["date"] { params["date"] = .string(date) }
                return try method.enter(params, context).mapResult(messages)
            })
    }

    private static func messages(_ result: RPCResult) throws -> RPCResult {
        let office = try result.value()
        let day = office["range"]?["end"]?.stringValue ?? "the latest day"
        let text = """
            Write a short briefing of the Korean box office for \(day): the top 10 in order, each with its rank \
            change (신작 for a new entry, ▲n up, ▼n down, - unchanged), the day's audience and the total so far. \
            Point out new entries and the biggest moves. The day's box office is attached as JSON.
            """
        let json = JSONSerializer.serialize(office)
        return .value([
            "description": .string("Box office briefing for \(day)"),
            "messages": [
                ["role": "user", "content": ["type": "text", "text": .string(text)]],
                [
                    "role": "user",
                    "content": [
                        "type": "resource",
                        "resource": [
                            "uri": .string("boxoffice://daily/\(day)"), "mimeType": "application/json",
                            "text": .string(String(decoding: json, as: UTF8.self)),
                        ],
                    ],
                ],
            ],
        ])
    }
}
