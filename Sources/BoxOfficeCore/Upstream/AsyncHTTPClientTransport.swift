import AsyncHTTPClient
import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The production transport: the API calls over plain http through a lean client of our own (``PlainHTTPClient``,
/// kept-alive connections, AsyncHTTPClient's timeouts and errors), the other API calls (https: Kakao) through one
/// shared AsyncHTTPClient (connection reuse), a client of its own per download hop (below), a size cap on bodies, a
/// deadline on the whole exchange, and redirects followed here — at most three; for API calls only to the same origin
/// (scheme, host and port), so a redirect can never carry a request (or a key) to another service, another port or
/// clear text; for images to any http(s) URL the request's ``HTTPRequest/destinationCheck`` allows, hop by hop, each
/// hop connecting to the address the check vetted.
package final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    /// The lean client the API calls over plain http go through (``PlainHTTPClient``); AsyncHTTPClient takes the rest.
    private let plain: PlainHTTPClient
    /// The event loop every exchange runs on, the jobs' (``EventLoopExecutor``; see ``exchange(_:on:collector:ends:)``).
    private let loop: any EventLoop
    package let maximumBodyBytes: Int
    /// The most one exchange may take, redirects and the whole body included (`--deadline`): the per-call timeout
    /// covers connecting and the head only, and a server that sends its head and then trickles or stops would
    /// otherwise hold the call, and one of the few places in flight, for ever.
    package let deadline: Duration

    /// `--timeout`: the time an attempt has to its head (connecting included) and the longest silence between two
    /// reads of its body, so a body that stalls after its headers fails that attempt after this long, not after a
    /// fixed time.
    package let silence: Duration

    /// - Parameters:
    ///   - deadline: no default here: the default is the `--deadline` flag's, in the worker's flag table.
    ///   - silence: the `--timeout` flag's value (its default is in the same table).
    package init(maximumBodyBytes: Int = 16 << 20, deadline: Duration, silence: Duration) {
        client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: Self.configuration(silence: silence))
        loop = EventLoopExecutor.shared.loop
        plain = PlainHTTPClient(loop: loop, silence: .nanoseconds(Self.nanoseconds(silence)))
        self.maximumBodyBytes = maximumBodyBytes
        self.deadline = deadline
        self.silence = silence
    }

    /// The client's configuration; `pinned` maps a host name to the address to connect to instead of looking the
    /// name up (the certificate is still checked against the name). `silence` is the read timeout: the longest
    /// wait for the next bytes of an answer once connected.
    static func configuration(pinned: [String: String] = [:], silence: Duration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // connect: 5 s to make a connection (the head's deadline, --timeout, bounds the attempt as a whole);
        // read: --timeout, the longest silence between two reads once the request is sent, the body's included.
        // (Tying connect to --timeout too made ten connections opened at once on a loaded machine, with the tests'
        // --timeout 0.5 under ThreadSanitizer, fail to be made and be retried.)
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: .seconds(5), read: .nanoseconds(Self.nanoseconds(silence)))
        // The default of 8 connections per host would split a fan-out of ten details (or ten posters) into two
        // waves; the per-service bound of the fetcher chain is what limits concurrency.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        configuration.dnsOverride = pinned
        // No distributed tracing: nothing bootstraps a tracer, and the default (the global no-op one) still started,
        // named and ended a span on every request: 2 % of an uncached call's CPU (issue 43).
        configuration.tracing.tracer = nil
        return configuration
    }

    /// Closes the client's connections; call once at exit.
    package func shutdown() async {
        plain.shutdown()
        try? await client.shutdown()
    }

    package func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportError) -> HTTPResponse {
        // The exchange's own limit, or what is left of its call's, whichever ends first. AsyncHTTPClient holds it
        // (through ``AnswerCollector``, its deadline covers the whole body): a server that sends its head and then
        // trickles or stops is cut there, which the client's read timeout (silence only) would not do.
        let limit = request.callEnds.map { min(deadline, ContinuousClock.now.duration(to: $0)) } ?? deadline
        guard limit > .zero else {
            throw TransportError(.deadline, "no time left for \(request.redactedURL) within the call's deadline")
        }
        let ends = Ends(deadline: .now() + .nanoseconds(Self.nanoseconds(limit)), limit: limit)
        return try await exchange(request, timeout: timeout, ends: ends)
    }

    /// When the whole exchange must be over, and the limit that set it (for the message).
    private struct Ends {
        var deadline: NIODeadline
        var limit: Duration
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// `duration` in seconds, to a tenth: `15`, `0.5`, `14.8`.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    private func exchange(_ request: HTTPRequest, timeout: Duration, ends: Ends) async throws(TransportError)
        -> HTTPResponse
    {
        var url = request.url
        var redactedURL = request.redactedURL
        for hop in 0...3 {
            var pinnedAddress: String?
            if let check = request.destinationCheck {
                switch await check(url) {
                case .refused(let reason):
                    throw TransportError(
                        .refused, hop == 0 ? reason : "\(redactedURL) redirects where downloads may not go: \(reason)")
                case .allowed(let address):
                    pinnedAddress = address
                }
            }
            let outcome = try await hopOnce(
                url: url, redactedURL: redactedURL, request: request, timeout: timeout, ends: ends,
                pinnedAddress: pinnedAddress)
            switch outcome {
            case .answer(let response):
                return response
            case .redirect(let next):
                url = next
                redactedURL = next.contains("key=") ? String(next.prefix { $0 != "?" }) + "?…" : next
            }
        }
        throw TransportError(.redirect, "\(redactedURL) redirects more than 3 times")
    }

    private enum Hop {
        case answer(HTTPResponse)
        case redirect(String)
    }

    /// One request and its answer (its whole body, or where it redirects). With `pinnedAddress` (a download whose
    /// destination check vetted the host's address), on a client of its own that connects to that address and
    /// never looks the name up again, shut down when the hop ends, however it ends. The pin is keyed by the host as
    /// AsyncHTTPClient reads it (`URL.host`); a URL whose host cannot be read that way is refused, never fetched
    /// unpinned.
    private func hopOnce(
        url: String, redactedURL: String, request: HTTPRequest, timeout: Duration, ends: Ends, pinnedAddress: String?
    ) async throws(TransportError) -> Hop {
        guard let address = pinnedAddress else {
            return try await hopOnce(
                url: url, redactedURL: redactedURL, request: request, timeout: timeout, ends: ends, on: client)
        }
        guard let host = URL(string: url)?.host, !host.isEmpty else {
            throw TransportError(.refused, "\(redactedURL) has no host a download can be pinned to")
        }
        if address == host {
            return try await hopOnce(
                url: url, redactedURL: redactedURL, request: request, timeout: timeout, ends: ends, on: client)
        }
        let pinned = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: Self.configuration(pinned: [host: address], silence: silence))
        let outcome: Result<Hop, TransportError>
        do throws(TransportError) {
            outcome = .success(
                try await hopOnce(
                    url: url, redactedURL: redactedURL, request: request, timeout: timeout, ends: ends, on: pinned))
        } catch {
            outcome = .failure(error)
        }
        try? await pinned.shutdown()
        return try outcome.get()
    }

    private func hopOnce(
        url: String, redactedURL: String, request: HTTPRequest, timeout: Duration, ends: Ends, on client: HTTPClient
    ) async throws(TransportError) -> Hop {
        let cap = min(request.maximumBytes ?? maximumBodyBytes, maximumBodyBytes)
        // The head is due `--timeout` after the attempt began, connecting included.
        let headBy = NIODeadline.now() + .nanoseconds(Self.nanoseconds(timeout))
        // An API call over plain http goes through the lean client; anything else through AsyncHTTPClient.
        let plainTarget =
            client === self.client && request.destinationCheck == nil && Self.plainHeaders(request.headers)
            ? PlainHTTPTarget(url) : nil
        let http: HTTPClient.Request?
        if plainTarget == nil {
            do {
                http = try HTTPClient.Request(url: url, method: .GET, headers: HTTPHeaders(request.headers))
            } catch {
                throw TransportError(.other, "\(redactedURL) is not a URL the HTTP client can send (\(error))")
            }
        } else {
            http = nil
        }
        let answer: AnswerCollector.Answer
        do {
            if let plainTarget {
                answer = try await plainExchange(
                    plainTarget, headers: request.headers, cap: cap, headBy: headBy, ends: ends)
            } else if let http {
                let collector = AnswerCollector(cap: cap, headBy: headBy)
                answer = try await exchange(http, on: client, collector: collector, ends: ends)
            } else {
                preconditionFailure("a hop has a plain target or a request for AsyncHTTPClient")
            }
        } catch is AnswerCollector.TooLarge {
            throw TransportError(.tooLarge, "the body of \(redactedURL) is larger than \(cap) bytes")
        } catch let late as AnswerCollector.NoHeadInTime {
            guard late.connected else {
                throw TransportError(
                    .connect, "cannot connect to \(redactedURL) within \(Self.seconds(timeout)) s (--timeout)")
            }
            throw TransportError(.timeout, "no answer in time from \(redactedURL)")
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw TransportError(
                .deadline,
                "no complete answer from \(redactedURL) within \(Self.seconds(ends.limit)) s (the deadline for a whole call, body included)"
            )
        } catch {
            if Task.isCancelled { throw TransportError(.reset, "the call to \(redactedURL) was cancelled") }
            throw Self.map(error, redactedURL, silence: silence)
        }
        let headers = answer.head.headers
        let status = Int(answer.head.status.code)
        if (300..<400).contains(status), let location = headers.first(name: "location") {
            let target =
                request.redirectsToAnyHost
                ? Self.webTarget(location, from: url) : Self.sameOriginTarget(location, from: url)
            guard let next = target else {
                throw TransportError(
                    .redirect,
                    "\(redactedURL) redirects to \(request.redirectsToAnyHost ? "a URL that is not http or https" : "another scheme, host or port"), which is not followed"
                )
            }
            return .redirect(next)
        }
        return .answer(
            HTTPResponse(
                status: status, contentType: headers.first(name: "content-type"),
                body: answer.body.map { Array($0.readableBytesView) } ?? [],
                retryAfter: HTTPResponse.retryAfter(headers.first(name: "retry-after"))))
    }

    /// One request through `client`, begun on an event loop and gathered there, the caller resumed once at its end.
    ///
    /// Why on a loop: AsyncHTTPClient asked from another thread hands over each step — the request's bag, its
    /// deadline, the connection pool, and the delegate's loop when it differs from the connection's — with a wake-up
    /// of a loop each (issue 43). A job runs on ``loop`` itself (``EventLoopExecutor``): its exchange is begun,
    /// gathered and its caller resumed with no hand-off at all. Called off the loop (tests, the CLI's commands), a
    /// hand-off there and one back.
    ///
    /// The connection is *preferred* on the loop, not required: AsyncHTTPClient keeps alive only the connections
    /// made for requests that prefer a loop, and closes one made for a request that requires it as soon as it is
    /// idle (a connect per call). Every request prefers this one loop, so its connections are made there.
    /// A task cancelled meanwhile cancels the request.
    private func exchange(
        _ request: HTTPClient.Request, on client: HTTPClient, collector: AnswerCollector, ends: Ends
    ) async throws -> AnswerCollector.Answer {
        let started = NIOLockedValueBox<(task: HTTPClient.Task<AnswerCollector.Answer>?, cancelled: Bool)>((nil, false))
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let begin: @Sendable () -> Void = {
                    let task = client.execute(
                        request: request, delegate: collector, eventLoop: .delegate(on: loop),
                        deadline: ends.deadline)
                    collector.armHeadTimer(for: task)
                    let cancelled = started.withLockedValue { state -> Bool in
                        state.task = task
                        return state.cancelled
                    }
                    if cancelled { task.cancel() }
                    task.futureResult.whenComplete { continuation.resume(with: $0) }
                }
                if loop.inEventLoop { begin() } else { loop.execute(begin) }
            }
        } onCancel: {
            started.withLockedValue { state -> HTTPClient.Task<AnswerCollector.Answer>? in
                state.cancelled = true
                return state.task
            }?.cancel()
        }
    }

    /// Whether request headers can go through the lean client as they are: names of token characters (RFC 9110),
    /// values of visible characters, spaces and tabs (anything else is AsyncHTTPClient's to accept or refuse, as
    /// before).
    static func plainHeaders(_ headers: [(String, String)]) -> Bool {
        headers.allSatisfy { name, value in
            !name.isEmpty && name.utf8.allSatisfy(tokenCharacters.contains)
                && value.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
        }
    }

    /// RFC 9110's token characters, a header name's.
    private static let tokenCharacters = ASCIISet(lettersDigitsAnd: "!#$%&'*+-.^_`|~")

    /// One request through the lean client (``PlainHTTPClient``), its caller resumed once at its end; a task
    /// cancelled meanwhile ends it.
    private func plainExchange(
        _ target: PlainHTTPTarget, headers: [(String, String)], cap: Int, headBy: NIODeadline, ends: Ends
    ) async throws -> AnswerCollector.Answer {
        let (answer, cancel) = plain.execute(target, headers: headers, cap: cap, headBy: headBy, ends: ends.deadline)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.whenComplete { continuation.resume(with: $0) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The absolute URL of a redirect target when it is http or https (relative targets resolve against `url`),
    /// or nil.
    static func webTarget(_ location: String, from url: String) -> String? {
        guard let base = URL(string: url), let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
        return target.absoluteString
    }

    /// The absolute URL of a redirect target of the same origin — scheme, host and port (the scheme's own port when
    /// none is written) — or nil: a key may only ever reach the origin it was meant for, never another port of the
    /// same host, nor the same host in clear text. Hosts are read by `URLComponents`, which knows IPv6 literals
    /// (`[::1]:8080`) and user information (`user@host`).
    static func sameOriginTarget(_ location: String, from url: String) -> String? {
        guard let target = webTarget(location, from: url),
            let from = URLComponents(string: url), let to = URLComponents(string: target),
            let fromHost = from.host?.lowercased(), let toHost = to.host?.lowercased(),
            let fromScheme = from.scheme?.lowercased(), let toScheme = to.scheme?.lowercased()
        else { return nil }
        func port(_ components: URLComponents, _ scheme: String) -> Int {
            components.port ?? (scheme == "https" ? 443 : 80)
        }
        guard fromScheme == toScheme, fromHost == toHost, port(from, fromScheme) == port(to, toScheme) else {
            return nil
        }
        return target
    }

    static func map(_ error: any Error, _ redactedURL: String, silence: Duration) -> TransportError {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout:
                return TransportError(
                    .timeout, "\(redactedURL) sent nothing for \(seconds(silence)) s (--timeout)")
            case .connectTimeout, .deadlineExceeded, .writeTimeout:
                return TransportError(.timeout, "no answer in time from \(redactedURL)")
            case .remoteConnectionClosed, .cancelled:
                return TransportError(.reset, "the connection to \(redactedURL) closed before the answer was complete")
            default:
                return TransportError(.other, "HTTP client error \(error.shortDescription) for \(redactedURL)")
            }
        }
        switch error {
        case is NIOConnectionError, ChannelError.connectTimeout, ChannelError.connectPending:
            return TransportError(.connect, "cannot connect to \(redactedURL)")
        case ChannelError.ioOnClosedChannel, ChannelError.eof, ChannelError.outputClosed, ChannelError.inputClosed:
            return TransportError(.reset, "the connection to \(redactedURL) closed before the answer was complete")
        case let error as IOError:
            return TransportError(.reset, "the connection to \(redactedURL) failed (errno \(error.errnoCode))")
        default:
            break
        }
        return TransportError(.other, "\(type(of: error)) for \(redactedURL)")
    }
}

extension HTTPClientError {
    /// A name for the error without any URL in it.
    var shortDescription: String {
        String(String(describing: self).prefix { $0 != "(" })
    }
}
