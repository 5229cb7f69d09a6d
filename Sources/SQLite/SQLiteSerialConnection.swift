import Dispatch

/// A ``SQLiteConnection`` shared by threads, one call at a time: ``inline(_:)`` runs a call on the caller's
/// thread under a lock, for statements that never wait (a read in WAL mode: readers never wait for a writer);
/// ``run(_:)`` is for writes, which may wait up to the busy timeout for another process's lock and must not hold one
/// of the few threads of Swift's cooperative pool meanwhile. A write is tried first on the caller's thread with no
/// busy wait at all — nearly always the database's write lock is free, and the write then costs no hand-off to the
/// connection's queue and back (two wake-ups of an uncached call, issue 43) — and goes to the connection's own
/// dispatch queue, to wait there, only when the connection or the database's lock is held.
///
/// Unchecked: the connection is read and written only inside `lock`.
package final class SQLiteSerialConnection: @unchecked Sendable {
    private var connection: SQLiteConnection?
    private let lock = ConnectionLock()
    private let queue: DispatchQueue

    package init(_ connection: SQLiteConnection, label: String) {
        self.connection = connection
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` on the caller's thread with the connection to itself.
    package func inline<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock { () throws -> T in
            guard let connection else { throw SQLiteError(code: 21, message: "the database connection is closed") }
            return try body(connection)
        }
    }

    /// Runs `body` (a write: a transaction that SQLite may refuse with `SQLITE_BUSY` while another connection holds
    /// the write lock, having changed nothing) on the caller's thread when the connection and the database's lock
    /// are free now, else on the connection's queue, where it waits up to the busy timeout.
    package func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        if let done = tryAtOnce(body) { return try done.get() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.inline(body) })
            }
        }
    }

    /// `body`'s outcome when it ran here without waiting; nil when the connection is in use on another thread or
    /// the database's write lock is held (`SQLITE_BUSY`: the transaction rolled back, nothing changed).
    private func tryAtOnce<T>(_ body: (SQLiteConnection) throws -> T) -> Result<T, any Error>? {
        let outcome = lock.withLockIfFree { () -> Result<T, any Error>? in
            guard let connection else {
                return .failure(SQLiteError(code: 21, message: "the database connection is closed"))
            }
            do {
                return .success(try connection.withoutBusyWait { try body($0) })
            } catch let error as SQLiteError where error.isBusy {
                return nil
            } catch {
                return .failure(error)
            }
        }
        return outcome ?? nil
    }

    /// Closes the connection; later calls fail with `SQLITE_MISUSE`.
    package func close() {
        lock.withLock {
            connection?.close()
            connection = nil
        }
    }
}
