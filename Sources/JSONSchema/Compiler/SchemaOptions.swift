package import JSONCore

/// How schemas are compiled.
package struct SchemaOptions: Sendable {
    /// Assert `format` (for `date`, `date-time`, `time`, `email`, `uri`, `uuid`, `ipv4`, `ipv6`) instead of only
    /// annotating it. A schema whose meta-schema enables the format-assertion vocabulary asserts regardless.
    package var assertFormats: Bool
    /// Supplies the document for an absolute URI (without fragment) that a `$ref` or `$schema` names and no
    /// compiled document declares. `nil`: such references are compile errors. The worker never fetches from the
    /// network; tests map URIs to local files.
    package var resolver: (@Sendable (String) -> JSONValue?)?

    package init(assertFormats: Bool = false, resolver: (@Sendable (String) -> JSONValue?)? = nil) {
        self.assertFormats = assertFormats
        self.resolver = resolver
    }
}
