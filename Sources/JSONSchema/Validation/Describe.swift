import JSONCore

/// Short renderings of values for error messages: a person reads them, so long values are cut.
enum Describe {
    static let limit = 60

    static func value(_ value: JSONValue) -> String {
        let text = value.description
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }

    /// The most values an enum's refusal names; a longer list is cut with a count. An enum is what a caller may
    /// send, so the refusal names all of it where it can (the 68 ways to name a region): "… 71 more" would leave a
    /// person guessing.
    static let listed = 100

    static func list(_ values: [JSONValue]) -> String {
        let shown = values.prefix(listed).map(value).joined(separator: ", ")
        return values.count > listed ? "[\(shown), … \(values.count - listed) more]" : "[\(shown)]"
    }

    static func number(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return JSONValue.real(number).description
    }

    static func article(_ typeName: String) -> String {
        (["a", "e", "i", "o", "u"].contains(typeName.first.map(String.init) ?? "") ? "an " : "a ") + typeName
    }
}
