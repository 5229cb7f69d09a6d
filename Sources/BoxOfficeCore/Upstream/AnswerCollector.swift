import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Gathers one HTTP answer — its head and its whole body, up to a cap — on the delegate's event loop (the jobs'
/// loop, where the connection is preferred), and hands it over once, when the exchange is complete.
///
/// Why a delegate and not AsyncHTTPClient's async `execute`: there the head resumes the caller's task, the body
/// arrives as an async sequence read from the pool, and a whole-exchange deadline needs a timer task of its own (the
/// async API's deadline ends at the head). Through the delegate the exchange runs on the event loop from the first
/// byte to the last, AsyncHTTPClient's deadline covers the body too, and the caller's task is resumed once (issue
/// 43: each hand-off between the event loop and the pool was a wake-up and a context switch of an uncached call).
///
/// `--timeout` bounds the wait for the head here, connecting included (``armHeadTimer(for:)``, when the exchange is
/// begun on its loop); silence while the body comes is the client's read timeout.
final class AnswerCollector: HTTPClientResponseDelegate {
    struct Answer: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer?
    }

    /// The body is (or says it will be) larger than the cap.
    struct TooLarge: Error {}
    /// No head by the attempt's `--timeout`; `connected` tells whether the request had been sent by then (else no
    /// connection was made in that time: a refused or unreachable host is retried by the client until then).
    struct NoHeadInTime: Error {
        var connected: Bool
    }

    private struct State {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
        var headTimer: Scheduled<Void>?
        var sent = false
    }

    private let cap: Int
    private let headBy: NIODeadline
    private let state = NIOLockedValueBox(State())

    init(cap: Int, headBy: NIODeadline) {
        self.cap = cap
        self.headBy = headBy
    }

    /// Arms the head's timer on `task`'s loop (called there, right after the request is handed to the client, so
    /// arming it wakes nothing): at ``headBy`` without a head, the request fails with ``NoHeadInTime``.
    func armHeadTimer(for task: HTTPClient.Task<Answer>) {
        let timer = task.eventLoop.scheduleTask(deadline: headBy) { [state] in
            let connected = state.withLockedValue { $0.sent }
            task.fail(reason: NoHeadInTime(connected: connected))
        }
        let late = state.withLockedValue { state -> Scheduled<Void>? in
            guard state.head == nil else { return timer }
            state.headTimer = timer
            return nil
        }
        late?.cancel()
    }

    func didSendRequestHead(task: HTTPClient.Task<Answer>, _ head: HTTPRequestHead) {
        state.withLockedValue { $0.sent = true }
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLockedValue { state in
            state.head = head
            state.headTimer?.cancel()
            state.headTimer = nil
        }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > cap {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLockedValue { state -> Bool in
            var part = buffer
            if state.body == nil {
                state.body = part
            } else {
                state.body!.writeBuffer(&part)
            }
            return state.body!.readableBytes <= cap
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(TooLarge())
    }

    func didReceiveError(task: HTTPClient.Task<Answer>, _ error: any Error) {
        state.withLockedValue { state in
            state.headTimer?.cancel()
            state.headTimer = nil
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        try state.withLockedValue { state in
            state.headTimer?.cancel()
            state.headTimer = nil
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            return Answer(head: head, body: state.body)
        }
    }
}
