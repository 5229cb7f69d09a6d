package import JSONCore

extension JSONValue {
    /// Parses test text, trapping on invalid JSON (a defect in the test itself).
    package init(json text: String) {
        do {
            self = try JSONParser.parse(text)
        } catch {
            fatalError("test JSON does not parse: \(error)\n\(text)")
        }
    }

    /// The value at a JSON Pointer, for terse assertions: `response[at: "/error/code"]`.
    package subscript(at pointer: String) -> JSONValue? {
        JSONPointer(pointer)?.resolve(in: self)
    }
}

/// A request line: `request(1, "ping")`, `request(1, "x", params: ["a": 1])`.
package func request(_ id: JSONValue?, _ method: String, params: JSONValue? = nil) -> String {
    var object: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
    if let id { object["id"] = id }
    if let params { object["params"] = params }
    return JSONValue.object(object).description
}
