import NIOConcurrencyHelpers
import NIOPosix
import Postgres

/// The PostgreSQL store's connections and the threads they are used on: an operation borrows an idle connection
/// (or opens one, up to ``maximumConnections``) on a thread of the pool's own, so a statement that waits for the
/// server holds none of the few threads of Swift's cooperative pool, and gives it back when it is done.
///
/// A connection goes back to the idle list only when it is still open, outside any transaction and not closed by
/// the server meanwhile (``PostgresConnection/isReusable``); any other is closed, and the next operation opens a
/// new one. So a restarted server costs one failed operation at most, not one per pooled connection.
final class PostgresPool: Sendable {
    /// As many connections (and threads) as the fleet's workers need at once: a fan-out's statements take
    /// microseconds on the server, so eight keep up with twenty requests in flight.
    static let maximumConnections = 8

    private struct State {
        var idle: [PostgresConnection] = []
        var closed = false
    }

    private let parameters: [(String, String)]
    private let threads: NIOThreadPool
    private let state = NIOLockedValueBox(State())

    /// - Parameter parameters: libpq's connection keywords and values.
    init(parameters: [(String, String)]) {
        self.parameters = parameters
        threads = NIOThreadPool(numberOfThreads: Self.maximumConnections)
        threads.start()
    }

    /// Runs `body` with a connection on one of the pool's threads; every wait in it ends by `deadline`.
    func withConnection<T: Sendable>(
        until deadline: ContinuousClock.Instant, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await threads.runIfActive { [self] in
            let connection = try borrow(until: deadline)
            defer { giveBack(connection) }
            return try body(connection)
        }
    }

    /// Closes the idle connections and stops the threads; connections in use are closed when they come back.
    func close() async {
        let idle = state.withLockedValue { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { connection.close() }
        try? await threads.shutdownGracefully()
    }

    private func borrow(until deadline: ContinuousClock.Instant) throws -> PostgresConnection {
        while let connection = state.withLockedValue({ $0.idle.popLast() }) {
            if connection.isReusable { return connection }
            connection.close()
        }
        return try PostgresConnection(parameters: parameters, deadline: deadline)
    }

    /// Keeps `connection` when the operation left it idle; whether the server closed it meanwhile is asked when it
    /// is next borrowed (``PostgresConnection/isReusable``), one `poll` per operation, not two.
    private func giveBack(_ connection: PostgresConnection) {
        guard connection.isIdle else {
            connection.close()
            return
        }
        let kept = state.withLockedValue { state in
            guard !state.closed, state.idle.count < Self.maximumConnections else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept { connection.close() }
    }
}
