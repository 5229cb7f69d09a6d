import CPostgres
import Glibc

/// One connection to PostgreSQL through libpq, loaded at run time (``Libpq``), driven without blocking past a
/// deadline: the connection is made with `PQconnectPoll` and each statement is sent and read with libpq's
/// asynchronous calls, waiting on its socket with `poll(2)` until the deadline given.
///
/// A blocking `PQexec` would wait forever on a server that stopped answering (a host gone without closing its
/// sockets); here the call fails at the deadline and the connection is closed, so the thread it ran on is free
/// again. Results come back in binary and are read by their column's type.
///
/// Not thread-safe: one thread at a time (the store lends each connection to one operation at a time, hence
/// `@unchecked Sendable`: it may pass from thread to thread, never be used by two).
package final class PostgresConnection: @unchecked Sendable {
    private let libpq: BOLibpq
    private var handle: OpaquePointer?

    /// Connects with libpq's keywords (`host`, `port`, `user`, `password`, `dbname`, `sslmode`, …) by `deadline`.
    package init(parameters: [(String, String)], deadline: ContinuousClock.Instant) throws(PostgresError) {
        libpq = try Libpq.table()
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let started = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordList in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valueList in
                libpq.PQconnectStartParams(keywordList.baseAddress, valueList.baseAddress, 0)
            }
        }
        guard let started else { throw PostgresError(.connection, "libpq could not allocate a connection") }
        handle = started
        do throws(PostgresError) {
            guard libpq.PQstatus(started) != BO_CONNECTION_BAD else { throw connectionError() }
            // Polled until it is made or fails, waiting for the socket as PQconnectPoll asks.
            var state = Int32(BO_PGRES_POLLING_WRITING)
            while state != BO_PGRES_POLLING_OK {
                switch state {
                case Int32(BO_PGRES_POLLING_READING): try wait(reading: true, writing: false, until: deadline)
                case Int32(BO_PGRES_POLLING_WRITING): try wait(reading: false, writing: true, until: deadline)
                default: throw connectionError()
                }
                state = libpq.PQconnectPoll(started)
            }
            guard libpq.PQsetnonblocking(started, 1) == 0 else { throw connectionError() }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connection (the server ends any transaction it left open).
    package func close() {
        guard let handle else { return }
        libpq.PQfinish(handle)
        self.handle = nil
    }

    /// Whether the connection is open, idle outside any transaction, and was not closed by the server meanwhile:
    /// what a connection must be to be lent again. Reads what the socket holds without waiting (a server that shut
    /// down sends a last message and closes), so a connection that died while idle is found here, not by the next
    /// statement.
    package var isReusable: Bool {
        guard isIdle, let handle else { return false }
        var descriptor = pollfd(fd: libpq.PQsocket(handle), events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 0) > 0 {
            guard libpq.PQconsumeInput(handle) == 1 else { return false }
        }
        return libpq.PQstatus(handle) == BO_CONNECTION_OK
    }

    /// Whether the connection is open and outside any transaction, as libpq last saw it (no system call): what an
    /// operation leaves a connection it may give back.
    package var isIdle: Bool {
        guard let handle else { return false }
        return libpq.PQstatus(handle) == BO_CONNECTION_OK && libpq.PQtransactionStatus(handle) == BO_PQTRANS_IDLE
    }

    /// Runs one statement with `parameters` (`$1`, `$2`, …) and returns its rows, each a value per column.
    ///
    /// - Throws: `.server` when the server refused the statement (the connection stays usable), `.connection` or
    ///   `.timeout` when the connection failed or the deadline passed (the connection is then closed).
    @discardableResult
    package func query(
        _ sql: String, _ parameters: [PostgresValue] = [], until deadline: ContinuousClock.Instant
    ) throws(PostgresError) -> [[PostgresValue]] {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        do throws(PostgresError) {
            try send(sql, parameters, on: handle, until: deadline)
            var rows: [[PostgresValue]] = []
            var failure: PostgresError?
            // Every result is read, to the last (nil), whatever came first: the connection is then ready again.
            while true {
                while libpq.PQisBusy(handle) == 1 {
                    try wait(reading: true, writing: false, until: deadline)
                    guard libpq.PQconsumeInput(handle) == 1 else { throw connectionError() }
                }
                guard let result = libpq.PQgetResult(handle) else { break }
                defer { libpq.PQclear(result) }
                switch libpq.PQresultStatus(result) {
                case Int32(BO_PGRES_TUPLES_OK): rows = try Self.rows(of: result, libpq)
                case Int32(BO_PGRES_COMMAND_OK), Int32(BO_PGRES_EMPTY_QUERY): break
                default:
                    guard libpq.PQstatus(handle) == BO_CONNECTION_OK else { throw connectionError() }
                    failure = failure ?? serverError(result)
                }
            }
            if let failure { throw failure }
            return rows
        } catch {
            if error.kind != .server { close() }
            throw error
        }
    }

    private func send(
        _ sql: String, _ parameters: [PostgresValue], on handle: OpaquePointer, until deadline: ContinuousClock.Instant
    ) throws(PostgresError) {
        // Text for every parameter but bytes, with its type named, so `$1` is never left for the server to guess.
        var types: [Oid] = []
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            let (type, bytes, format): (Oid, [UInt8]?, Int32) =
                switch parameter {
                case .null: (25, nil, 0)
                case .int(let value): (20, Array("\(value)".utf8), 0)
                case .double(let value): (701, Array("\(value)".utf8), 0)
                case .text(let value): (25, Array(value.utf8), 0)
                case .bool(let value): (16, Array((value ? "t" : "f").utf8), 0)
                case .bytes(let value): (17, value, 1)
                }
            types.append(type)
            formats.append(format)
            lengths.append(Int32(bytes?.count ?? 0))
            values.append(
                bytes.map { bytes in
                    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1) + 1)
                    bytes.withUnsafeBytes { raw in
                        UnsafeMutableRawPointer(copy).copyMemory(
                            from: raw.baseAddress ?? UnsafeRawPointer(copy), byteCount: bytes.count)
                    }
                    copy[bytes.count] = 0
                    return copy
                })
        }
        defer { values.forEach { $0?.deallocate() } }
        let sent = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valueList in
            libpq.PQsendQueryParams(
                handle, sql, Int32(parameters.count), types, valueList.baseAddress, lengths, formats, 1)
        }
        guard sent == 1 else { throw connectionError() }
        // In non-blocking mode the statement may not all be out yet: flush, reading what arrives meanwhile.
        while true {
            let flushed = libpq.PQflush(handle)
            if flushed == 0 { return }
            guard flushed == 1 else { throw connectionError() }
            let readable = try wait(reading: true, writing: true, until: deadline)
            if readable { guard libpq.PQconsumeInput(handle) == 1 else { throw connectionError() } }
        }
    }

    /// Waits until the socket is ready; returns whether it can be read. Throws `.timeout` at the deadline.
    @discardableResult
    private func wait(reading: Bool, writing: Bool, until deadline: ContinuousClock.Instant) throws(PostgresError)
        -> Bool
    {
        guard let handle else { throw PostgresError(.connection, "the connection is closed") }
        let events = (reading ? Int16(POLLIN) : 0) | (writing ? Int16(POLLOUT) : 0)
        while true {
            let left = deadline - .now
            guard left > .zero else {
                throw PostgresError(.timeout, "the PostgreSQL server did not answer in time")
            }
            let milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: libpq.PQsocket(handle), events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
            if ready < 0 && errno != EINTR {
                throw PostgresError(.connection, "poll: \(String(cString: strerror(errno)))")
            }
        }
    }

    private func connectionError() -> PostgresError {
        let text = handle.flatMap { libpq.PQerrorMessage($0) }.map { String(cString: $0) } ?? ""
        return PostgresError(.connection, text.isEmpty ? "the connection to PostgreSQL failed" : text)
    }

    private func serverError(_ result: OpaquePointer) -> PostgresError {
        let field = { [libpq] (code: Int32) in libpq.PQresultErrorField(result, code).map { String(cString: $0) } }
        let message =
            field(Int32(BO_PG_DIAG_MESSAGE_PRIMARY)) ?? libpq.PQresultErrorMessage(result).map { String(cString: $0) }
            ?? "the statement failed"
        return PostgresError(.server, message, sqlState: field(Int32(BO_PG_DIAG_SQLSTATE)))
    }

    /// The rows of a binary result, each column read by its type's binary form.
    private static func rows(of result: OpaquePointer, _ libpq: BOLibpq) throws(PostgresError) -> [[PostgresValue]] {
        let count = libpq.PQntuples(result)
        let columns = libpq.PQnfields(result)
        let types = (0..<columns).map { libpq.PQftype(result, $0) }
        var rows: [[PostgresValue]] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            var values: [PostgresValue] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns {
                if libpq.PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(libpq.PQgetlength(result, row, column))
                let bytes = UnsafeRawBufferPointer(start: libpq.PQgetvalue(result, row, column), count: length)
                values.append(try BinaryColumn.value(type: types[Int(column)], bytes))
            }
            rows.append(values)
        }
        return rows
    }
}
