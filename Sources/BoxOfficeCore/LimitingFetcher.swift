import Synchronization

/// Bounds the upstream calls in flight per service (`include` fans out up to 20 calls per box office, and several
/// requests may fan out at once). The default width, 10, lets one wave cover a page of ten entries.
public struct LimitingFetcher: Fetcher {
    private let inner: any Fetcher
    private let kobis: AsyncLimiter
    private let kakao: AsyncLimiter

    public init(_ inner: any Fetcher, perService width: Int = 10) {
        self.inner = inner
        kobis = AsyncLimiter(width: width)
        kakao = AsyncLimiter(width: width)
    }

    public func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let limiter = call.service == .kobis ? kobis : kakao
        do {
            try await limiter.acquire()
        } catch {
            throw BoxOfficeError(.upstreamUnavailable, "cancelled while waiting for a free \(call.service.rawValue) connection", service: call.service)
        }
        defer { limiter.release() }
        return try await inner.fetch(call)
    }
}

/// A counting semaphore for tasks: at most `width` holders; waiters are served first come, first served, and a
/// cancelled waiter leaves the queue at once.
final class AsyncLimiter: Sendable {
    private struct State: ~Copyable {
        var available: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(width: Int) {
        state = Mutex(State(available: max(1, width)))
    }

    func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLock { state -> Bool in
                    if Task.isCancelled { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return false
                }
                if granted {
                    continuation.resume()
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
