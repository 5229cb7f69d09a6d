import NIOConcurrencyHelpers

/// Makes identical upstream calls that are in flight at the same time once, and shares the answer with every
/// caller (within this process).
///
/// - Important: The shared call runs in a task of its own (``Flight``), owned by this fetcher and not by any
///   caller: a caller that is cancelled (a `$/cancelRequest`) stops waiting at once, and the call goes on for the
///   others. When the last caller has gone, the call is cancelled too. The task is unstructured on purpose: no
///   caller's task may own a call that outlives that caller.
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
        try await fetch(call, kept: nil, keeping: nil)
    }

    /// Fetches `call` as ``fetch(_:)`` does, for the cache above: `keeping` stores the answer inside the shared call,
    /// before the call ends, and `kept` looks for it there (memory) under this fetcher's lock when no call is in
    /// flight. A caller that arrives as a call ends finds its answer either in flight or kept, never neither; without
    /// both, a caller that missed the cache while the call was ending made a second upstream call for the same day
    /// (a few days in 10,000 `pipe` lines).
    package func fetch(
        _ call: UpstreamCall, kept: (@Sendable () -> Fetched?)?, keeping: (@Sendable (Fetched) -> Fetched)?
    ) async throws(BoxOfficeError) -> Fetched {
        let key = call.key
        let joined = flights.withLockedValue { table -> Joined in
            if table[key] == nil, let hit = kept?() { return .kept(hit) }
            let flight =
                table[key]
                ?? {
                    let created = Flight()
                    table[key] = created
                    created.start { [inner] in
                        let result: Result<Fetched, BoxOfficeError>
                        do throws(BoxOfficeError) {
                            let fetched = try await inner.fetch(call)
                            result = .success(keeping?(fetched) ?? fetched)
                        } catch {
                            result = .failure(error)
                        }
                        return result
                    } finished: { [weak self] in
                        self?.flights.withLockedValue { _ = $0.removeValue(forKey: key) }
                    }
                    return created
                }()
            return .flight(flight, flight.join())
        }
        switch joined {
        case .kept(let answer): return answer
        case .flight(let flight, let ticket): return try await flight.wait(ticket).get()
        }
    }

    /// What a caller found under the lock: the answer the cache already kept, or a flight and its ticket in it.
    private enum Joined {
        case kept(Fetched)
        case flight(Flight, UInt64)
    }
}
