import CSQLite

/// A failure SQLite reported: its result code (the extended one where it gave one) and its own message, which
/// names the table or the constraint and never the values bound.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's result code (`SQLITE_BUSY` is 5, `SQLITE_CONSTRAINT` 19, …).
    package let code: Int32
    package let message: String

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The error of `connection`'s last call, which returned `code`.
    init(code: Int32, connection: OpaquePointer?) {
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: code, message: text ?? String(cString: sqlite3_errstr(code)))
    }

    package var description: String { "SQLite error \(code): \(message)" }

    /// `SQLITE_BUSY` or one of its extended codes: another connection holds a lock this call needed.
    package var isBusy: Bool { code & 0xFF == SQLITE_BUSY }
}
