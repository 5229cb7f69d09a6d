import JSONCore

/// One failed assertion, in the spirit of JSON Schema's "basic" output format.
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance the failure is (`/date`).
    public let instanceLocation: JSONPointer
    /// Which keyword failed, as a path through the schema (`/properties/date/pattern`).
    public let keywordLocation: JSONPointer
    /// A sentence a person can act on.
    public let message: String

    public init(instanceLocation: JSONPointer, keywordLocation: JSONPointer, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.message = message
    }

    public var description: String {
        "\(instanceLocation.description.isEmpty ? "(root)" : instanceLocation.description): \(message)"
    }
}

/// A schema that cannot be compiled: malformed, or using a keyword this validator does not implement.
public struct SchemaCompilationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let keywordLocation: JSONPointer
    public let message: String

    public init(keywordLocation: JSONPointer, message: String) {
        self.keywordLocation = keywordLocation
        self.message = message
    }

    public var description: String { "\(keywordLocation): \(message)" }
}
