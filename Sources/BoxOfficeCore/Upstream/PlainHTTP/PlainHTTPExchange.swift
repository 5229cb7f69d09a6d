import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One GET over a plain connection, from the request's head to the answer's end, on the client's event loop.
///
/// It keeps AsyncHTTPClient's contract for the same request (``AsyncHTTPClientTransport`` maps both the same way):
/// the head is due by `headBy` (``AnswerCollector/NoHeadInTime``, saying whether the request was sent); once sent,
/// no more than `silence` may pass without a byte (`HTTPClientError.readTimeout`); the whole exchange ends by
/// `ends` (`.deadlineExceeded`); a body larger than `cap` fails (``AnswerCollector/TooLarge``); a connection that
/// closes before the end fails (`.remoteConnectionClosed`). It ends exactly once: the first of those, the answer's
/// end, or a cancellation.
///
/// Confined to the event loop: every method is called there (``PlainHTTPClient`` sees to it).
final class PlainHTTPExchange {
    typealias Answer = AnswerCollector.Answer

    let promise: EventLoopPromise<Answer>
    let target: PlainHTTPTarget
    private let head: HTTPRequestHead
    private let cap: Int
    private let silence: TimeAmount
    private let loop: any EventLoop

    private var answerHead: HTTPResponseHead?
    private var body: ByteBuffer?
    private(set) var channel: (any Channel)?
    private var connection: PlainHTTPConnection?
    private var sent = false
    private(set) var ended = false
    private var lastRead = NIODeadline.now()
    private var timers: [Scheduled<Void>] = []
    private var silenceTimer: Scheduled<Void>?
    /// Called with the connection when the exchange ended with a complete answer on a connection that may be used
    /// again (the pool takes it back); any other end closes the connection.
    var release: ((any Channel, PlainHTTPConnection) -> Void)?

    /// `promise` is completed once, with the answer or the error that ended the exchange.
    init(
        target: PlainHTTPTarget, headers: [(String, String)], cap: Int, silence: TimeAmount,
        promise: EventLoopPromise<Answer>
    ) {
        self.target = target
        self.cap = cap
        self.silence = silence
        self.promise = promise
        loop = promise.futureResult.eventLoop
        var fields = HTTPHeaders([("Host", target.hostHeader)])
        fields.add(contentsOf: headers)
        head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.requestTarget, headers: fields)
    }

    /// Arms the head's and the whole exchange's timers.
    func arm(headBy: NIODeadline, ends: NIODeadline) {
        let loop = loop.assumeIsolated()
        timers.append(
            loop.scheduleTask(deadline: headBy) { [self] in
                if answerHead == nil { fail(AnswerCollector.NoHeadInTime(connected: sent)) }
            })
        timers.append(loop.scheduleTask(deadline: ends) { [self] in fail(HTTPClientError.deadlineExceeded) })
    }

    /// Sends the request on `channel` (connected, its pipeline made by ``PlainHTTPClient``).
    func send(on channel: any Channel, _ connection: PlainHTTPConnection) {
        guard !ended else { return }
        // A connection that closed between its making and now (the peer reset it at once) has told no exchange.
        guard channel.isActive else { return fail(HTTPClientError.remoteConnectionClosed) }
        self.channel = channel
        self.connection = connection
        connection.exchange = self
        sent = true
        lastRead = .now()
        armSilence(at: lastRead + silence)
        // No promise to watch: a write that fails closes the connection, and its end fails the exchange
        // (``connectionClosed()``).
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }

    func received(_ part: HTTPClientResponsePart) {
        guard !ended else { return }
        lastRead = .now()
        switch part {
        case .head(let head):
            answerHead = head
            if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > cap {
                fail(AnswerCollector.TooLarge())
            }
        case .body(var part):
            if body == nil {
                body = part
            } else {
                body!.writeBuffer(&part)
            }
            if body!.readableBytes > cap { fail(AnswerCollector.TooLarge()) }
        case .end:
            guard let answerHead else { return fail(HTTPClientError.remoteConnectionClosed) }
            end()
            // The connection goes back to the pool (or is closed) before the caller hears of the answer.
            if let channel, let connection, answerHead.isKeepAlive, channel.isActive, let release {
                connection.exchange = nil
                release(channel, connection)
            } else {
                channel?.close(promise: nil)
            }
            promise.succeed(Answer(head: answerHead, body: body))
        }
    }

    /// The connection closed while the exchange was under way.
    func connectionClosed() {
        fail(HTTPClientError.remoteConnectionClosed)
    }

    /// Ends the exchange with `error`, once; the connection, if any, is closed (never used again).
    func fail(_ error: any Error) {
        guard !ended else { return }
        end()
        if let connection, connection.exchange === self { connection.exchange = nil }
        channel?.close(promise: nil)
        promise.fail(error)
    }

    private func end() {
        ended = true
        for timer in timers { timer.cancel() }
        timers = []
        silenceTimer?.cancel()
        silenceTimer = nil
    }

    /// The silence timer is re-armed only when it fires (at the last read plus `silence`), not on every read: one
    /// timer an exchange in the usual case.
    private func armSilence(at deadline: NIODeadline) {
        silenceTimer = loop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            guard !ended else { return }
            let due = lastRead + silence
            if due <= .now() {
                fail(HTTPClientError.readTimeout)
            } else {
                armSilence(at: due)
            }
        }
    }
}
