/// A `pattern` compiled once: ECMA-262 syntax as far as JSON Schema uses it, run by Swift's Regex engine.
///
/// ECMA-262 differs from Swift's default in ways the test suite checks: `\d`, `\w` and their negations are ASCII
/// only, and matching is over Unicode code points, not grapheme clusters. Patterns are unanchored (a match anywhere).
final class ECMARegex: @unchecked Sendable {
    // @unchecked: the Regex is built once in init and only read afterwards; matching does not mutate it.
    let source: String
    private let regex: Regex<AnyRegexOutput>

    init(_ source: String) throws {
        self.source = source
        regex = try Regex(Self.translate(source)).matchingSemantics(.unicodeScalar)
    }

    func matches(_ text: String) -> Bool {
        (try? regex.firstMatch(in: text)) != nil
    }

    /// Rewrites ECMA-262's ASCII class escapes into explicit classes.
    static func translate(_ pattern: String) -> String {
        var result = ""
        var inClass = false
        var iterator = pattern.makeIterator()
        while let character = iterator.next() {
            if character == "\\", let next = iterator.next() {
                switch (next, inClass) {
                case ("d", false): result += "[0-9]"
                case ("d", true): result += "0-9"
                case ("D", false): result += "[^0-9]"
                case ("w", false): result += "[a-zA-Z0-9_]"
                case ("w", true): result += "a-zA-Z0-9_"
                case ("W", false): result += "[^a-zA-Z0-9_]"
                default: result += "\\" + String(next)
                }
                continue
            }
            if character == "[" && !inClass { inClass = true } else if character == "]" && inClass { inClass = false }
            result.append(character)
        }
        return result
    }
}
