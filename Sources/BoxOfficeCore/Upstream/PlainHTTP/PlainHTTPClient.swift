import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A lean HTTP/1.1 client for the API calls over plain `http` (KOBIS's own scheme, and every fake upstream of the
/// tests): a GET, its whole answer, kept-alive connections, on the one event loop the jobs run on.
///
/// Why not AsyncHTTPClient for these, which does all of this and more: its request bag, connection pool, state
/// machines, per-request timers and URL parsing were about 45 µs of the worker's 370 µs of CPU for an uncached call
/// (issue 43; `perf record`, 3,000 calls). This client keeps only what an API call uses — a pool of idle
/// connections per host and port, NIO's HTTP/1.1 encoder and its llhttp-based decoder (which reads hostile answers
/// as AsyncHTTPClient's does, the same parser), and the same timeouts (``PlainHTTPExchange``). Everything else goes
/// to AsyncHTTPClient as before: `https` (Kakao), downloads (whose hops are vetted and pinned), redirects' next hops
/// when they are not plain `http`, and any URL ``PlainHTTPTarget`` does not read.
///
/// Connecting: as AsyncHTTPClient's pool, a refused or unreachable host is tried again (100 ms, doubling to 1 s)
/// until the head's deadline or ``connectTimeout``, whichever comes first (then the last attempt's error). There is
/// no cap on connections per host, where AsyncHTTPClient queued past 32: the fetcher chain's per-service bound is
/// what limits how many calls run at once (``LimitingFetcher``).
///
/// Confined to ``loop``: ``execute(_:headers:cap:headBy:ends:)`` hops there when called elsewhere.
final class PlainHTTPClient: Sendable {
    let loop: any EventLoop
    private let silence: TimeAmount
    private let pool = Pool()
    /// The longest an exchange goes on trying to connect (AsyncHTTPClient's connect timeout, as the worker sets it).
    let connectTimeout: TimeAmount
    /// Idle connections kept per host and port (a fan-out's worth; more are closed when released).
    static let idleKept = 32
    /// An idle connection older than this is closed rather than used (AsyncHTTPClient's default idle timeout).
    static let idleLimit: TimeAmount = .seconds(60)

    init(loop: any EventLoop, silence: TimeAmount, connectTimeout: TimeAmount = .seconds(5)) {
        self.loop = loop
        self.silence = silence
        self.connectTimeout = connectTimeout
    }

    /// The idle connections, by origin. `@unchecked`: read and written only on ``loop`` (every caller is there,
    /// which `assert`s check in debug builds); made off it, before any use.
    private final class Pool: @unchecked Sendable {
        struct Idle {
            var channel: any Channel
            var connection: PlainHTTPConnection
            var since: NIODeadline
        }
        var idle: [String: [Idle]] = [:]
        var closed = false
    }

    /// One GET of `target`; its answer, or the error that ended it (the errors AsyncHTTPClient's delegate API gives
    /// for the same ends). `cancel` (from any thread) ends it with `HTTPClientError.cancelled`.
    func execute(
        _ target: PlainHTTPTarget, headers: [(String, String)], cap: Int, headBy: NIODeadline, ends: NIODeadline
    ) -> (answer: EventLoopFuture<AnswerCollector.Answer>, cancel: @Sendable () -> Void) {
        let promise = loop.makePromise(of: AnswerCollector.Answer.self)
        // The exchange is made on the loop; a cancellation from another thread finds it here.
        let started = NIOLockedValueBox<NIOLoopBound<PlainHTTPExchange>?>(nil)
        let begin: @Sendable () -> Void = { [self] in
            let exchange = PlainHTTPExchange(
                target: target, headers: headers, cap: cap, silence: silence, promise: promise)
            started.withLockedValue { $0 = NIOLoopBound(exchange, eventLoop: loop) }
            exchange.arm(headBy: headBy, ends: ends)
            exchange.release = { [self] channel, connection in release(channel, connection, origin: target.origin) }
            if let idle = takeIdle(target.origin) {
                exchange.send(on: idle.channel, idle.connection)
            } else {
                let capped = NIODeadline.now() + connectTimeout
                connect(
                    exchange, by: min(headBy, capped), headBound: headBy <= capped, backoff: .milliseconds(100),
                    lastFailure: nil)
            }
        }
        if loop.inEventLoop { begin() } else { loop.execute(begin) }
        let home = loop
        return (
            promise.futureResult,
            {
                home.execute {
                    started.withLockedValue { $0 }?.value.fail(HTTPClientError.cancelled)
                }
            }
        )
    }

    /// Closes the idle connections; later releases close theirs.
    func shutdown() {
        let close: @Sendable () -> Void = { [pool] in
            pool.closed = true
            for (_, entries) in pool.idle { for entry in entries { entry.channel.close(promise: nil) } }
            pool.idle = [:]
        }
        if loop.inEventLoop { close() } else { loop.execute(close) }
    }

    private func takeIdle(_ origin: String) -> Pool.Idle? {
        assert(loop.inEventLoop)
        let now = NIODeadline.now()
        while var entries = pool.idle[origin], let entry = entries.popLast() {
            pool.idle[origin] = entries.isEmpty ? nil : entries
            entry.connection.whenClosedIdle = nil
            if entry.channel.isActive, now - entry.since < Self.idleLimit { return entry }
            entry.channel.close(promise: nil)
        }
        return nil
    }

    private func release(_ channel: any Channel, _ connection: PlainHTTPConnection, origin: String) {
        assert(loop.inEventLoop)
        guard !pool.closed, (pool.idle[origin]?.count ?? 0) < Self.idleKept else {
            return channel.close(promise: nil)
        }
        connection.whenClosedIdle = { [weak pool] in
            guard let pool else { return }
            pool.idle[origin]?.removeAll { $0.channel === channel }
            if pool.idle[origin]?.isEmpty == true { pool.idle[origin] = nil }
        }
        pool.idle[origin, default: []].append(Pool.Idle(channel: channel, connection: connection, since: .now()))
    }

    /// Connects for `exchange`, trying again after `backoff` while there is time before `deadline`. When the
    /// deadline is the head's (`headBound`), its timer ends the exchange, saying no connection was made; else the
    /// exchange fails at the deadline with the last attempt's error (a refused port is a connection failure, as
    /// AsyncHTTPClient reports it), or the connect timeout when no attempt ended.
    private func connect(
        _ exchange: PlainHTTPExchange, by deadline: NIODeadline, headBound: Bool, backoff: TimeAmount,
        lastFailure: (any Error)?
    ) {
        let connection = PlainHTTPConnection()
        let left = deadline - .now()
        guard left > .zero else {
            if !headBound { exchange.fail(lastFailure ?? HTTPClientError.connectTimeout) }
            return
        }
        // The bootstrap's group is the loop itself, so the channel and its initializer are on it too.
        let handler = NIOLoopBound(connection, eventLoop: loop)
        ClientBootstrap(group: loop)
            .connectTimeout(left)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(HTTPRequestEncoder())
                    try operations.addHandler(ByteToMessageHandler(HTTPResponseDecoder()))
                    try operations.addHandler(handler.value)
                }
            }
            .connect(host: exchange.target.host, port: exchange.target.port)
            .assumeIsolated()
            .whenComplete { [self] result in
                switch result {
                case .success(let channel):
                    guard !exchange.ended else {
                        // Ended while connecting (a timer, a cancellation): the connection serves the next call.
                        return release(channel, connection, origin: exchange.target.origin)
                    }
                    exchange.send(on: channel, connection)
                case .failure(let error):
                    guard !exchange.ended else { return }
                    let wait = min(backoff, deadline - .now())
                    loop.assumeIsolated().scheduleTask(in: max(wait, .zero)) { [self] in
                        guard !exchange.ended else { return }
                        connect(
                            exchange, by: deadline, headBound: headBound, backoff: min(backoff * 2, .seconds(1)),
                            lastFailure: error)
                    }
                }
            }
    }
}
