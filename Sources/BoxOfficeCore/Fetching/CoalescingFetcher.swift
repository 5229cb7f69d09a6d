import NIOConcurrencyHelpers

/// Makes identical upstream calls that are in flight at the same time once, and shares the answer with every
/// caller (within this process).
///
/// - Important: The shared call runs in a task of its own, owned by this fetcher and not by any caller: a caller
///   that is cancelled (a `$/cancelRequest`) stops waiting at once, and the call goes on for the others. When the
///   last caller has gone, the call is cancelled too. This is the one deliberate unstructured task of the worker.
package final class CoalescingFetcher: Fetcher {
    private let inner: any Fetcher
    private let flights = NIOLockedValueBox<[String: Flight]>([:])

    package init(_ inner: any Fetcher) {
        self.inner = inner
    }

    /// Calls in flight now (for tests and status).
    package var inFlight: Int { flights.withLockedValue { $0.count } }

    /// Callers sharing the calls in flight now: what a test waits for before it lets a call finish, so "these
    /// callers shared one call" does not depend on how fast they arrived.
    package var callers: Int { flights.withLockedValue { $0.values.reduce(0) { $0 + $1.members } } }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let key = call.key
        let (flight, waiter) = flights.withLockedValue { table -> (Flight, UInt64) in
            let flight =
                table[key]
                ?? {
                    let created = Flight()
                    table[key] = created
                    created.start { [inner] in
                        let result: Result<Fetched, BoxOfficeError>
                        do throws(BoxOfficeError) {
                            result = .success(try await inner.fetch(call))
                        } catch {
                            result = .failure(error)
                        }
                        return result
                    } finished: { [weak self] in
                        self?.flights.withLockedValue { _ = $0.removeValue(forKey: key) }
                    }
                    return created
                }()
            return (flight, flight.join())
        }
        return try await flight.wait(waiter).get()
    }

    /// One shared call and the callers waiting for it.
    final class Flight: Sendable {
        private struct State {
            var result: Result<Fetched, BoxOfficeError>?
            var waiters: [UInt64: CheckedContinuation<Result<Fetched, BoxOfficeError>, Never>] = [:]
            var gone: Set<UInt64> = []
            var nextWaiter: UInt64 = 0
            var members = 0
            var task: Task<Void, Never>?
        }

        private let state = NIOLockedValueBox(State())

        /// Callers that joined and have not gone.
        var members: Int { state.withLockedValue { $0.members } }

        func start(
            _ body: @escaping @Sendable () async -> Result<Fetched, BoxOfficeError>,
            finished: @escaping @Sendable () -> Void
        ) {
            let task = Task {
                let result = await body()
                finished()
                let waiters = self.state.withLockedValue {
                    state -> [CheckedContinuation<Result<Fetched, BoxOfficeError>, Never>] in
                    state.result = result
                    defer { state.waiters = [:] }
                    return Array(state.waiters.values)
                }
                for waiter in waiters { waiter.resume(returning: result) }
            }
            state.withLockedValue { $0.task = task }
        }

        /// Registers a caller; its ticket for ``wait(_:)``.
        func join() -> UInt64 {
            state.withLockedValue { state in
                state.nextWaiter += 1
                state.members += 1
                return state.nextWaiter
            }
        }

        func wait(_ ticket: UInt64) async -> Result<Fetched, BoxOfficeError> {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = state.withLockedValue { state -> Result<Fetched, BoxOfficeError>? in
                        if let result = state.result { return result }
                        if state.gone.contains(ticket) {
                            return .failure(
                                BoxOfficeError(.upstreamUnavailable, "cancelled while waiting for the upstream"))
                        }
                        state.waiters[ticket] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                let (waiter, orphaned) = state.withLockedValue {
                    state -> (CheckedContinuation<Result<Fetched, BoxOfficeError>, Never>?, Task<Void, Never>?) in
                    state.gone.insert(ticket)
                    state.members -= 1
                    let waiter = state.waiters.removeValue(forKey: ticket)
                    return (waiter, state.members == 0 && state.result == nil ? state.task : nil)
                }
                waiter?.resume(
                    returning: .failure(
                        BoxOfficeError(.upstreamUnavailable, "cancelled while waiting for the upstream")))
                orphaned?.cancel()
            }
        }
    }
}
