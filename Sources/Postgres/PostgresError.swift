/// A failure of the PostgreSQL client: the connection (refused, lost, TLS, authentication, a deadline passed, libpq
/// missing) or a statement the server answered with an error.
///
/// The text is libpq's or the server's own, on one line; it names the host and the user, never a password (libpq
/// does not repeat one), and the store redacts it all the same.
package struct PostgresError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable, Equatable {
        /// The connection failed or is gone: the store counts it as an outage.
        case connection
        /// The time given passed first; the connection was closed (its state is unknown).
        case timeout
        /// The server answered a statement with an error (`sqlState`): the store is up, the statement failed.
        case server
        /// libpq could not be loaded.
        case library
    }

    package let kind: Kind
    package let message: String
    /// The server's SQLSTATE for a `.server` error (`57014` is a statement timeout).
    package let sqlState: String?

    package init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = Self.oneLine(message)
        self.sqlState = sqlState
    }

    package var description: String {
        sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    /// libpq's messages end with a newline and continue on indented lines ("\n\tIs the server running…").
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.drop(while: { $0 == " " || $0 == "\t" }) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
