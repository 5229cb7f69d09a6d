import JSONCore
import JSONRPC
import JSONSchema
import MCP
import TestSupport
import Testing

/// The MCP layer on its own, over a catalog made here (two tools, no resources, no prompts): what it does with any
/// application's tools, whatever the worker offers.
@Suite("MCP server over a catalog of its own")
struct MCPServerTests {
    static let object = try! JSONSchema(["type": "object"])

    static let schema = try! JSONSchema([
        "type": "object", "required": ["text"], "properties": ["text": ["type": "string"]],
        "additionalProperties": false,
    ])

    /// `echo` answers its text at once.
    struct Echo: RPCMethod {
        let name = "probe.echo"
        let summary = "echo"
        var paramsSchema: JSONSchema { MCPServerTests.schema }
        let resultSchema: JSONValue = ["type": "object"]
        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
            .value(["said": params["text"] ?? .null])
        }
    }

    /// `refuse` throws a contract error after work.
    struct Refuse: RPCMethod {
        let name = "probe.refuse"
        let summary = "refuse"
        var paramsSchema: JSONSchema { MCPServerTests.object }
        let resultSchema: JSONValue = ["type": "object"]
        func start(_ params: JSONObject, _ context: RequestContext) throws -> RPCReply {
            .later { throw RPCError(RPCErrorCode(rawValue: -31004), "nothing here", data: ["reason": "not_found"]) }
        }
    }

    /// `echo` and `refuse`; nothing else.
    static let catalog = MCPCatalog(
        info: MCPServerInfo(name: "probe", title: "Probe", version: "1.0", instructions: "probes only"),
        tools: [
            MCPTool(
                name: "echo", title: "Echo", description: "Says the text back.",
                inputSchema: ["type": "object", "properties": ["text": ["type": "string"]]],
                outputSchema: ["type": "object"], annotations: ["readOnlyHint": true], method: Echo()),
            MCPTool(
                name: "refuse", title: "Refuse", description: "Always refuses.", inputSchema: ["type": "object"],
                outputSchema: nil, annotations: [:], method: Refuse()),
        ],
        resourceTemplates: [], resources: { [] }, read: { _, _ in nil }, prompts: [])

    /// A new session over the catalog, to end of input.
    func run(_ lines: [String]) async -> [JSONValue] {
        let session = MCPSession()
        var configuration = ServerConfiguration(ordered: true)
        configuration.rules = MCPServerMethods.rules(session)
        let host = InMemoryHost(
            registry: MCPServerMethods.registry(Self.catalog, session: session), configuration: configuration)
        return await host.json(lines)
    }

    @Test("initialize answers a legacy version with itself and anything else with the newest legacy version")
    func negotiation() {
        for version in MCPVersion.legacy { #expect(MCPVersion.negotiated(version) == version) }
        for other in [nil, "1999-01-01", MCPVersion.modern[0], ""] {
            #expect(MCPVersion.negotiated(other) == MCPVersion.legacy[0], "\(other ?? "nil")")
        }
        #expect(MCPVersion.supported == MCPVersion.modern + MCPVersion.legacy)
        #expect(MCPVersion.legacy.contains(MCPVersion.batches))
    }

    @Test("the handshake reports the catalog's own identity and instructions; the notification is not answered")
    func handshake() async {
        let out = await run([MCPRequests.initialize(1), request(nil, "notifications/initialized"), request(2, "ping")])
        #expect(out.count == 2)
        #expect(out[0][at: "/result/serverInfo/name"] == "probe" && out[0][at: "/result/instructions"] == "probes only")
        #expect(out[0][at: "/result/protocolVersion"] == "2025-06-18")
        #expect(out[1]["result"] == [:])
    }

    @Test("tools/list shows each tool as the catalog has it, in its order; outputSchema only where there is one")
    func listing() async {
        let out = await run([MCPRequests.initialize(1), request(2, "tools/list")])
        let tools = out[1][at: "/result/tools"]?.arrayValue ?? []
        #expect(tools.compactMap { $0["name"]?.stringValue } == ["echo", "refuse"])
        #expect(tools[0]["outputSchema"] == ["type": "object"] && tools[0][at: "/annotations/readOnlyHint"] == true)
        #expect(tools[1]["outputSchema"] == nil)
    }

    @Test("a result is structured content and a text block of the same JSON; a contract error is an isError result")
    func results() async {
        let out = await run([
            MCPRequests.initialize(1), MCPRequests.call(2, "echo", ["text": "안녕"]), MCPRequests.call(3, "refuse"),
        ])
        let echoed = out[1]["result"]
        #expect(echoed?["isError"] == false && echoed?["structuredContent"] == ["said": "안녕"])
        #expect(JSONValue(json: echoed?[at: "/content/0/text"]?.stringValue ?? "null") == ["said": "안녕"])
        let refused = out[2]["result"]
        #expect(refused?["isError"] == true && refused?[at: "/structuredContent/error/code"] == -31004)
        #expect(refused?[at: "/content/0/text"]?.stringValue?.contains("nothing here") == true)
    }

    @Test("arguments against the tool's schema: invalid ones are an isError result naming the place; no tool is -32602")
    func arguments() async {
        let out = await run([
            MCPRequests.initialize(1), MCPRequests.call(2, "echo", ["text": 5]), MCPRequests.call(3, "echo", [:]),
            MCPRequests.call(4, "absent"),
        ])
        for answer in out[1...2] {
            #expect(
                answer[at: "/result/isError"] == true && answer[at: "/result/structuredContent/error/code"] == -32602)
        }
        #expect(out[1][at: "/result/structuredContent/error/data/errors/0/instanceLocation"] == "/text")
        #expect(out[3][at: "/error/code"] == -32602)
    }
}
