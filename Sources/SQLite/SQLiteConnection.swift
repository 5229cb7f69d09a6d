import CSQLite

/// One connection to a SQLite database through SQLite's C API, with its prepared statements kept for reuse.
///
/// The worker needs a dozen statements, a busy timeout, `IMMEDIATE` transactions and WAL; this is that and no more.
/// It replaces GRDB, whose Linux build imports full Foundation (and with a static runtime, ICU's 34 MB data table
/// with it), for the few calls the store makes.
///
/// Not thread-safe by itself (opened with `SQLITE_OPEN_NOMUTEX`: SQLite takes no lock of its own on each call):
/// use it from one thread at a time, as ``SQLiteSerialConnection`` does.
package final class SQLiteConnection {
    private let handle: OpaquePointer
    /// Prepared once per SQL text (`SQLITE_PREPARE_PERSISTENT`) and reset after each use.
    private var statements: [String: OpaquePointer] = [:]
    private var closed = false
    /// The busy timeout in milliseconds, put back after ``withoutBusyWait(_:)``.
    private let busyMilliseconds: Int32

    /// Opens the database at `path`; `create` makes the file when it is missing. The busy timeout is how long a
    /// statement waits for another connection's lock before it fails with `SQLITE_BUSY`.
    package init(path: String, readOnly: Bool = false, create: Bool = false, busyTimeout: Duration) throws(SQLiteError)
    {
        var flags = SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, connection: opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        let (seconds, attoseconds) = busyTimeout.components
        busyMilliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        sqlite3_busy_timeout(handle, busyMilliseconds)
    }

    /// Runs `body` with no busy timeout: a lock held by another connection fails at once with `SQLITE_BUSY`.
    package func withoutBusyWait<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyMilliseconds) }
        return try body(self)
    }

    deinit { close() }

    /// Finalizes the kept statements and closes the connection; SQLite folds the WAL into the database when the
    /// last connection of the last process closes.
    package func close() {
        guard !closed else { return }
        closed = true
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one statement or several separated by semicolons, with no parameters (a schema step, a pragma).
    package func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }

    /// Runs one statement with `arguments` bound to its parameters in order (`?`, or `?1`, `?2`… to use one twice)
    /// and returns every row, each a value per column.
    @discardableResult
    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, argument) in arguments.enumerated() {
            try bind(argument, at: Int32(index + 1), in: statement)
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw SQLiteError(code: code, connection: handle) }
            let columns = sqlite3_column_count(statement)
            var row: [SQLiteValue] = []
            row.reserveCapacity(Int(columns))
            for column in 0..<columns { row.append(value(of: statement, at: column)) }
            rows.append(row)
        }
    }

    /// The first row of `sql`'s result, or nil when it has none.
    package func firstRow(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteValue]? {
        try rows(sql, arguments).first
    }

    /// The rowid of the last row an INSERT made on this connection.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a transaction begun `IMMEDIATE` (the write lock taken at once, waiting through the busy
    /// timeout, so the transaction never fails to upgrade from reading to writing later), committing what it
    /// returns and rolling back what it throws.
    /// (`BEGIN`, `COMMIT` and `ROLLBACK` are kept prepared like any statement: `sqlite3_exec` would parse them
    /// again on every write.)
    package func immediateTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try rows("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body(self)
        } catch {
            _ = try? rows("ROLLBACK")
            throw error
        }
        do {
            try rows("COMMIT")
        } catch {
            _ = try? rows("ROLLBACK")
            throw error
        }
        return result
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, connection: handle) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteValue, at index: Int32, in statement: OpaquePointer) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(statement, index)
        case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
        case .real(let number): code = sqlite3_bind_double(statement, index, number)
        case .text(let text):
            var text = text
            code = text.withUTF8 { utf8 in
                sqlite3_bind_text(
                    statement, index, UnsafeRawPointer(utf8.baseAddress)?.assumingMemoryBound(to: CChar.self),
                    Int32(utf8.count), csqlite_transient())
            }
        case .blob(let bytes):
            // A zero-length blob still needs a non-null address: SQLite binds NULL for a null one.
            code = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(
                    statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count),
                    csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }

    private func value(of statement: OpaquePointer, at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
