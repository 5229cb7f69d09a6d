import Dispatch
import NIOConcurrencyHelpers

/// A ``SQLiteConnection`` shared by threads, one call at a time: ``inline(_:)`` runs a call on the caller's
/// thread under a lock, for statements that never wait (a read in WAL mode: readers never wait for a writer);
/// ``run(_:)`` runs it on the connection's own dispatch queue, for writes, which may wait up to the busy timeout for
/// another process's lock and must not hold one of the few threads of Swift's cooperative pool meanwhile.
///
/// Unchecked: the connection is read and written only inside `lock`.
package final class SQLiteSerialConnection: @unchecked Sendable {
    private var connection: SQLiteConnection?
    private let lock = NIOLock()
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

    /// Runs `body` on the connection's queue and resumes the caller with its result.
    package func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.inline(body) })
            }
        }
    }

    /// Closes the connection; later calls fail with `SQLITE_MISUSE`.
    package func close() {
        lock.withLock {
            connection?.close()
            connection = nil
        }
    }
}
