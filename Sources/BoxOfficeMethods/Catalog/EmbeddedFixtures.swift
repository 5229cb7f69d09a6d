import JSONCore
import JSONSchema

/// Files from `Fixtures/`, embedded at build time.
package enum EmbeddedFixtures {
    /// The text of `Fixtures/<name>`, or `nil` when there is no such file.
    package static func text(_ name: String) -> String? {
        EmbeddedResources.files["Fixtures/" + name]
    }
}
