package import JSONCore

/// One failed assertion, in the spirit of JSON Schema's "basic" output format.
package struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance the failure is (`/date`).
    package let instanceLocation: JSONPointer
    /// Which keyword failed, as a path through the schema (`/properties/date/pattern`).
    package let keywordLocation: JSONPointer
    /// A sentence a person can act on.
    package let message: String

    package init(instanceLocation: JSONPointer, keywordLocation: JSONPointer, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.message = message
    }

    package var description: String {
        "\(instanceLocation.description.isEmpty ? "(root)" : instanceLocation.description): \(message)"
    }
}
