/// Why a store could not be opened or used. Its text never holds a password: messages are built from redacted
/// locations and from the database's own error text, never from a connection string.
package struct StoreError: Error, CustomStringConvertible {
    package enum Kind: Sendable {
        /// The store cannot be reached or failed; the worker goes on without it.
        case unavailable
        /// The database's schema is newer than this worker knows: the worker refuses it rather than guess.
        case newerSchema
        /// The configuration cannot work (a bad URL, a directory that is a file).
        case misconfigured
    }

    package let kind: Kind
    package let description: String

    package init(_ kind: Kind = .unavailable, _ description: String) {
        self.kind = kind
        self.description = description
    }

    init(_ description: String) {
        self.init(.unavailable, description)
    }
}
