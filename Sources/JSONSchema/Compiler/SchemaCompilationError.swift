package import JSONCore

/// A schema that cannot be compiled: malformed, or using a keyword this validator does not implement.
package struct SchemaCompilationError: Error, Sendable, Hashable, CustomStringConvertible {
    package let keywordLocation: JSONPointer
    package let message: String

    package init(keywordLocation: JSONPointer, message: String) {
        self.keywordLocation = keywordLocation
        self.message = message
    }

    package var description: String { "\(keywordLocation): \(message)" }
}
