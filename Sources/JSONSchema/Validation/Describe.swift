import JSONCore

/// Short renderings of values for error messages: a person reads them, so long values are cut.
enum Describe {
    static let limit = 60

    static func value(_ value: JSONValue) -> String {
        let text = value.description
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }

    static func list(_ values: [JSONValue]) -> String {
        let shown = values.prefix(8).map(value).joined(separator: ", ")
        return values.count > 8 ? "[\(shown), … \(values.count - 8) more]" : "[\(shown)]"
    }

    static func number(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return JSONValue.real(number).description
    }

    static func article(_ typeName: String) -> String {
        (["a", "e", "i", "o", "u"].contains(typeName.first.map(String.init) ?? "") ? "an " : "a ") + typeName
    }
}
