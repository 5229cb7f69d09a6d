package import BoxOfficeCore
package import JSONCore
package import JSONRPC

/// Reads params that already passed their schema into a method's input, so only what no schema can express
/// remains to check here; and writes an input back as params (``ParamsWriter``) for the schema to check on the
/// CLI's path: only what differs from the defaults, as a client would send it, so that a message quoting the params
/// reads the same on every face.
package struct ParamsReader {
    package let object: JSONObject

    package func string(_ key: String) -> String? { object[key]?.stringValue }
    package func bool(_ key: String) -> Bool? { object[key]?.boolValue }
    package func int(_ key: String) -> Int? { object[key]?.numberValue.map { Int($0) } }

    /// A `date` param (its format is checked by the schema).
    package func date(_ key: String = "date") throws(RPCError) -> CalendarDate? {
        guard let text = string(key) else { return nil }
        guard let date = CalendarDate(text) else {
            throw RPCError.invalidParams(at: JSONPointer(tokens: [key]), "\"\(text)\" is not a date")
        }
        return date
    }
}

/// Builds params from an input's members, leaving out the absent ones.
package struct ParamsWriter {
    private(set) var object: JSONObject = [:]

    package mutating func set(_ key: String, _ value: String?) {
        if let value { object[key] = .string(value) }
    }

    package mutating func set(_ key: String, _ value: Int?, default: Int? = nil) {
        if let value, value != `default` { object[key] = .int(value) }
    }

    /// A flag: written only when true (false is every boolean param's default).
    package mutating func set(_ key: String, flag: Bool) {
        if flag { object[key] = .bool(true) }
    }

    package mutating func set(_ key: String, _ value: Bool?) {
        if let value { object[key] = .bool(value) }
    }

    package mutating func set(_ key: String, _ values: [String]) {
        if !values.isEmpty { object[key] = .array(values.map(JSONValue.string)) }
    }
}
