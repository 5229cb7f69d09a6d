import JSONCore
import MCP

/// A method's schemas as a tool lists them: what a model needs to call the tool and read its result, and no more.
///
/// `tools/list` goes into a model's context before any call, so every byte there is paid on every turn. The
/// method's schemas in `Schemas/` are written for validation and for people (titles, descriptions of every member,
/// formats, patterns, bounds, reusable definitions); a tool keeps from them:
/// - input: everything a model chooses arguments by (each parameter's type, enum, bounds, default and description),
///   without a text's `pattern` and length bounds (the worker checks them and says so; the description gives the
///   form), without the document's identity (`$schema`, `$id`, `title`), its `examples` and its top-level description (the
///   tool's own description says it), and without `_meta`, which is no argument, and `chat`: the messages to post
///   are request bodies for bots and jobs, where a model writes its own words from the result (listed, `chat` and
///   its result member cost 1.3 KB of every turn). A long enum (more than
///   ``longEnum`` values) that the parameter's description spells out value by value (`area`: "0105001 서울시,
///   0105002 경기도, …") is not listed a second time: the worker checks the value all the same, and answers a wrong
///   one with the list. Short enums (`nation`, `period`) stay, for hosts that constrain a model's arguments;
/// - output: the shape only (types, members, enums, constants, nullability), two levels of members deep: the
///   members of a result with their types, and the members of the objects in it (a box office's entries, a movie's
///   actors, a run's days) by name, with their values only where they are a vocabulary (an entry's `trend`, a
///   run day's `list`): their types, and anything below them, are seen in the first answer. A
///   member that refers to a definition (`detail` and `poster` inside box office entries) is listed as the object it
///   is: the tools `movie_detail` and `movie_poster` list that shape themselves. Everything dropped only narrows
///   what a value may be, so a result valid against the method's schema is valid against the tool's (a test checks
///   every tool's structured content against its listed schema).
///
/// Measured on the six tools: 39,287 bytes of `tools/list` with the method schemas as they are; the shape without
/// `required`, bounds and descriptions still took 14.3 KB, and the third level of members 1.2 KB of that.
///
/// A parameter described the same way by an earlier tool (`boxoffice_weekly`'s `area`, `include`, … are
/// `boxoffice_daily`'s) is described once: the later tool says where (``describedOnce(_:)``).
///
/// The complete schemas stay where validating clients read them: `rpc.discover` on the JSON-RPC face.
enum ToolSchemas {
    /// `tools` with each parameter that an earlier tool has in the same form, description and all, described by
    /// reference: "As in boxoffice_daily." (all tools are listed together, so the model reads both).
    static func describedOnce(_ tools: [MCPTool]) -> [MCPTool] {
        var seen: [(tool: String, name: String, schema: JSONValue)] = []
        return tools.map { tool in
            var tool = tool
            guard var schema = tool.inputSchema.objectValue, var properties = schema["properties"]?.objectValue else {
                return tool
            }
            var own: [(String, String, JSONValue)] = []
            for property in properties {
                own.append((tool.name, property.key, property.value))
                guard var parameter = property.value.objectValue, parameter["description"] != nil,
                    let earlier = seen.first(where: { $0.name == property.key && $0.schema == property.value })
                else { continue }
                parameter["description"] = .string("As in \(earlier.tool).")
                properties[property.key] = .object(parameter)
            }
            seen += own
            schema["properties"] = .object(properties)
            tool.inputSchema = .object(schema)
            return tool
        }
    }

    /// More values than this make an enum long.
    static let longEnum = 4

    /// Which tool offers `card` (the picture as an `image` block): the day's, as the apps open on it. The weekly
    /// tool, which would list the same parameter and result member again, does not (they cost 0.4 KB a turn).
    static let cardTool = "boxoffice_daily"

    /// The params schema as a tool's input; `card` only for ``cardTool``.
    static func input(_ document: JSONValue, card: Bool = false) -> JSONValue {
        guard var schema = document.objectValue else { return document }
        for member in ["$schema", "$id", "title", "description", "examples"] { schema[member] = nil }
        if var properties = schema["properties"]?.objectValue {
            properties["_meta"] = nil
            properties["chat"] = nil
            if !card { properties["card"] = nil }
            for property in properties {
                // A text's length and pattern are the worker's to check (it answers with them); the description
                // says the form a model should write.
                guard case .object(var parameter) = property.value else { continue }
                for keyword in ["pattern", "minLength", "maxLength"] { parameter[keyword] = nil }
                if case .object(var items)? = parameter["items"] {
                    for keyword in ["pattern", "minLength", "maxLength"] { items[keyword] = nil }
                    parameter["items"] = .object(items)
                }
                properties[property.key] = .object(parameter)
                guard let values = parameter["enum"]?.arrayValue,
                    values.count > longEnum, let description = parameter["description"]?.stringValue,
                    values.allSatisfy({ $0.stringValue.map(description.contains) ?? false })
                else { continue }
                parameter["enum"] = nil
                if parameter["type"] == nil { parameter["type"] = "string" }
                properties[property.key] = .object(parameter)
            }
            schema["properties"] = .object(properties)
        }
        return .object(schema)
    }

    /// The result schema as a tool's output: its shape, an object at the top (as 2025-11-25 clients require);
    /// `card` (its size: the picture is an image block) only for ``cardTool``.
    static func output(_ document: JSONValue, card: Bool = false) -> JSONValue {
        guard case .object(var schema) = shape(document, depth: 0) else { return ["type": "object"] }
        if schema["type"] == nil { schema["type"] = "object" }
        // No tool asks for `chat` (see above), so no tool's result has it.
        if var properties = schema["properties"]?.objectValue {
            properties["chat"] = nil
            if !card {
                properties["card"] = nil
            } else if case .object(var drawn)? = properties["card"],
                case .object(var members)? = drawn["properties"]
            {
                // MCP never keeps a card in --files-dir: its picture is the image block.
                members["path"] = nil
                members["sha256"] = nil
                drawn["properties"] = .object(members)
                properties["card"] = .object(drawn)
            }
            schema["properties"] = .object(properties)
        }
        return .object(schema)
    }

    /// The keywords that say what a value is; every other keyword only documents or narrows it.
    private static let shapeKeywords: Set<String> = ["type", "properties", "items", "enum", "const", "oneOf", "anyOf"]

    /// Levels of members an output schema shows.
    private static let memberLevels = 2

    /// `depth`: how many levels of members lie above `schema`.
    private static func shape(_ schema: JSONValue, depth: Int) -> JSONValue {
        guard let object = schema.objectValue else { return schema }
        // Below the members of the result's objects, a member is its name (and its values when they are a
        // vocabulary): the types of an entry's members are seen in the first answer, and listing them cost a
        // fifth of `tools/list`.
        if depth >= memberLevels {
            var vocabulary = JSONObject()
            for keyword in ["enum", "const"] { vocabulary[keyword] = object[keyword] }
            return .object(vocabulary)
        }
        if let choices = (object["oneOf"] ?? object["anyOf"])?.arrayValue {
            if choices.contains(where: { $0.objectValue?["$ref"] != nil }) {
                return ["type": .array(types(of: choices).map(JSONValue.string))]
            }
            // null or an object (the quota, the store): the object's shape with null among its types.
            if choices.count == 2, choices.contains(["type": "null"]),
                case .object(var other)? = choices.first(where: { $0 != ["type": "null"] }).map({
                    shape($0, depth: depth)
                }),
                let type = other["type"]?.stringValue
            {
                other["type"] = [.string(type), "null"]
                return .object(other)
            }
        }
        var kept = JSONObject()
        for member in object where shapeKeywords.contains(member.key) {
            let (keyword, value) = (member.key, member.value)
            switch keyword {
            case "properties":
                var members = JSONObject()
                for property in value.objectValue ?? [:] {
                    members[property.key] = shape(property.value, depth: depth + 1)
                }
                kept[keyword] = .object(members)
            case "items":
                kept[keyword] = shape(value, depth: depth)
            case "oneOf", "anyOf":
                // anyOf: what told the alternatives apart (required, patterns, deeper members) is gone, so more
                // than one may match a valid value now, which oneOf would refuse.
                // Alternatives that only narrowed the members (which are required, which absent) say nothing now.
                let choices = (value.arrayValue ?? []).map { shape($0, depth: depth) }
                guard choices.contains(where: { $0.objectValue?["type"] != nil }) else { continue }
                kept["anyOf"] = .array(choices)
            default:
                kept[keyword] = value
            }
        }
        return .object(kept)
    }

    /// The JSON types a list of alternatives allows, a reference counted as an object (every definition the
    /// result schemas refer to is one).
    private static func types(of choices: [JSONValue]) -> [String] {
        var types: [String] = []
        for choice in choices {
            let named: [String]
            if choice.objectValue?["$ref"] != nil {
                named = ["object"]
            } else if let type = choice.objectValue?["type"] {
                named = type.stringValue.map { [$0] } ?? (type.arrayValue ?? []).compactMap(\.stringValue)
            } else {
                named = []
            }
            for type in named where !types.contains(type) { types.append(type) }
        }
        return types
    }
}
